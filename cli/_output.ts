/**
 * Printing data for the `ops` CLI: an aligned table for people, JSON or CSV for scripts.
 * Data goes to stdout; messages and errors go to stderr.
 */

export type OutputFormat = "table" | "json" | "csv";

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Renders rows as an aligned text table with a header line. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...cells.map((line) => line[i]!.length))
  );
  const line = (values: string[]) =>
    values.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join("\n");
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** RFC 4180 CSV with a header line. */
export function formatCsv<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const line = (values: string[]) => values.map(csvField).join(",");
  return [
    line(columns.map((c) => c.header)),
    ...rows.map((row) => line(columns.map((c) => cell(c.value(row))))),
  ].join("\r\n");
}

export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/** Prints a list in the chosen format; `json` prints `jsonValue` (the rows by default). */
export function printRows<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  format: OutputFormat,
  jsonValue: unknown = rows,
): void {
  if (format === "json") printJson(jsonValue);
  else if (format === "csv") console.log(formatCsv(rows, columns));
  else if (rows.length === 0) console.error("(none)");
  else console.log(formatTable(rows, columns));
}

/** `--json` wins; otherwise `--format`, otherwise a table. */
export function outputFormat(options: { json?: boolean; format?: string }): OutputFormat {
  if (options.json) return "json";
  const format = options.format ?? "table";
  if (format !== "table" && format !== "json" && format !== "csv") {
    throw new UsageError(`Unknown format "${format}": expected table, json or csv`);
  }
  return format;
}

/** A command used wrongly (exit code 2), beyond what commander itself checks. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
