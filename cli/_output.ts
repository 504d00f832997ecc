/**
 * One output convention for every `ops` command (API §16): `--format table|json|csv` (`--json`
 * is short for `--format json`). Tables are aligned (cli-table3, borderless) with money and
 * counts right-aligned; CSV is RFC 4180 (csv-stringify); colour only when the stream is a
 * terminal and NO_COLOR is not set. Data goes to stdout; messages and errors go to stderr.
 *
 * Stored text is printed only through these functions, which make it harmless: table cells and
 * messages lose escape sequences and control characters (`terminalText`: a product's name cannot
 * clear the screen), CSV cells lose them too and a spreadsheet formula gets a leading `'`
 * (`spreadsheetCell`; plain numbers such as `-12.50` stay numbers), and JSON escapes DEL and C1
 * (`\u009b`) besides what JSON escapes anyway: the same value, nothing a terminal acts on.
 */
import { type Command, Option } from "commander";
import Table from "cli-table3";
import { stringify } from "csv-stringify/sync";
import { storeLocalDateTime } from "../domain/calendar.ts";
import { spreadsheetCell } from "../domain/printing/spreadsheet_cell.ts";
import { terminalText } from "../domain/printing/terminal_text.ts";

export type OutputFormat = "table" | "json" | "csv";

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Money and counts are right-aligned in tables. */
  align?: "left" | "right";
}

/** Whether to colour what goes to `stream`: a terminal, and NO_COLOR unset or empty. */
export function colorEnabled(stream: "stdout" | "stderr"): boolean {
  if (Deno.env.get("NO_COLOR")) return false;
  return (stream === "stdout" ? Deno.stdout : Deno.stderr).isTerminal();
}

function bold(text: string, on: boolean): string {
  return on ? `\x1b[1m${text}\x1b[22m` : text;
}

/** The text of one cell: empty for null, `yes`/`no` for booleans, ISO for dates. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const NO_BORDERS = {
  "top": "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  "bottom": "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  "left": "",
  "left-mid": "",
  "mid": "",
  "mid-mid": "",
  "right": "",
  "right-mid": "",
  "middle": "  ",
};

/** An aligned, borderless table with a header line (bold on a colour terminal). */
export function formatTable<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  options: { color?: boolean } = {},
): string {
  const table = new Table({
    head: columns.map((c) => bold(c.header, options.color ?? false)),
    colAligns: columns.map((c) => c.align ?? "left"),
    chars: NO_BORDERS,
    style: { "head": [], "border": [], "padding-left": 0, "padding-right": 0 },
  });
  for (const row of rows) table.push(columns.map((c) => terminalText(cellText(c.value(row)))));
  return table.toString().split("\n").map((line) => line.trimEnd()).join("\n");
}

/**
 * RFC 4180 CSV (CRLF line ends) with a header line; each cell without control characters and
 * safe to open in a spreadsheet (see the top of this file).
 */
export function formatCsv<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  return stringify([
    columns.map((c) => c.header),
    ...rows.map((row) => columns.map((c) => spreadsheetCell(terminalText(cellText(c.value(row)))))),
  ], { record_delimiter: "windows", quoted_match: /[\r\n]/ });
}

function write(stream: "stdout" | "stderr", text: string): void {
  const out = stream === "stdout" ? Deno.stdout : Deno.stderr;
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += out.writeSync(bytes.subarray(written));
}

const JSON_UNESCAPED_CONTROL = /[\x7f-\x9f]/g;

/** Indented JSON; DEL and C1 escaped as `\u00XX` (JSON escapes C0 itself): the same value. */
export function printJson(value: unknown): void {
  const json = JSON.stringify(value, null, 2).replace(
    JSON_UNESCAPED_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  write("stdout", `${json}\n`);
}

/** A message (that may hold stored text) on stdout, made terminal-safe. */
export function printText(text: string): void {
  write("stdout", `${terminalText(text)}\n`);
}

/** A note or warning (that may hold stored text) on stderr, made terminal-safe. */
export function printNote(text: string): void {
  write("stderr", `${terminalText(text)}\n`);
}

/** Tables from `formatTable` (their cells are terminal-safe already), a blank line between. */
export function printTables(tables: readonly string[]): void {
  write("stdout", `${tables.join("\n\n")}\n`);
}

/**
 * Prints a list in the chosen format; `json` prints `jsonValue` (the rows by default). An empty
 * table prints `empty` on stderr instead (CSV still prints its header).
 */
export function printRows<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  format: OutputFormat,
  options: { json?: unknown; empty?: string } = {},
): void {
  if (format === "json") printJson(options.json ?? rows);
  else if (format === "csv") write("stdout", formatCsv(rows, columns));
  else if (rows.length === 0) printNote(options.empty ?? "(none)");
  else printTables([formatTable(rows, columns, { color: colorEnabled("stdout") })]);
}

/** Adds `--format table|json|csv` and `--json` to a command that prints data. */
export function withFormatOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--format <format>", "output format").choices(["table", "json", "csv"]),
    )
    .addOption(new Option("--json", "short for --format json").conflicts("format"));
}

/** The chosen format: `--json`, else `--format`, else a table. */
export function outputFormat(options: { json?: boolean; format?: string }): OutputFormat {
  if (options.json) return "json";
  const format = options.format ?? "table";
  return format === "json" || format === "csv" ? format : "table";
}

/** A size for people: `512 B`, `40.2 KiB`, `12.3 MiB`, `1.25 GiB`. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** An instant in the store's time zone for people: `2026-11-21 16:04 (Europe/Berlin)`. */
export function storeTime(iso: string | Date, timeZone: string): string {
  const instant = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(instant.getTime())) return String(iso);
  return `${storeLocalDateTime(instant, timeZone)} (${timeZone})`;
}
