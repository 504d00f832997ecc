/**
 * The output and help conventions of `ops`, checked on every command in-process (fast): each
 * has EXAMPLES and ENVIRONMENT in its help, each that prints data takes `--format`/`--json`;
 * tables align with money right-aligned, CSV is RFC 4180, errors map to exit codes 0/1/2.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import type { Command } from "commander";
import { buildProgram, exitCodeFor } from "../../cli/main.ts";
import { formatCsv, formatTable, storeTime } from "../../cli/_output.ts";
import { retryAfterText } from "../../cli/_api.ts";
import { CliError, UsageError } from "../../cli/_errors.ts";
import { summary } from "../../cli/commands/lessons.ts";
import { ConflictError, ValidationError } from "../../domain/errors.ts";

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

const LEAVES = everyCommand(buildProgram()).filter((c) => c.commands.length === 0);

/** The commands that print data (the others print a message: serve, seed, logout). */
const DATA_COMMANDS = [
  "ops migrate up",
  "ops migrate down",
  "ops migrate status",
  "ops modules list",
  "ops modules enable",
  "ops modules disable",
  "ops modules license",
  "ops report z",
  "ops report daily",
  "ops drawers list",
  "ops lessons generate",
  "ops rentals bill",
  "ops user create",
  "ops user reset-link",
  "ops login",
  "ops whoami",
  "ops vault status",
  "ops scan",
  "ops backup",
  "ops restore",
  "ops status",
  "ops setup",
];

Deno.test("every command's help has an Examples and an Environment section", () => {
  assertEquals(LEAVES.length, 29);
  for (const command of LEAVES) {
    const help = helpOf(command);
    assertMatch(help, /\nExamples:\n {2}\$ deno task ops /, pathOf(command));
    assertMatch(help, /\nEnvironment:\n {2}[A-Z_]+ /, pathOf(command));
  }
  const top = helpOf(buildProgram());
  for (const name of ["DATABASE_URL", "DATA_DIR", "OPS_SERVER", "OPS_TOKEN", "NO_COLOR"]) {
    assertStringIncludes(top, name);
  }
});

Deno.test("every command that prints data takes --format table|json|csv and --json", () => {
  const leaves = new Map(LEAVES.map((c) => [pathOf(c), c]));
  for (const path of DATA_COMMANDS) {
    const command = leaves.get(path);
    const flags = command?.options.map((o) => o.long) ?? [];
    assertEquals(flags.includes("--format") && flags.includes("--json"), true, path);
    const format = command!.options.find((o) => o.long === "--format")!;
    assertEquals(format.argChoices, ["table", "json", "csv"], path);
  }
});

Deno.test("formatTable() aligns columns, right-aligns money and counts, and trims line ends", () => {
  const rows = [
    { method: "cash", count: 12, amount: "1250.00" },
    { method: "card", count: 3, amount: "9.50" },
    { method: "gift card", count: null, amount: "-0.25" },
  ];
  const table = formatTable(rows, [
    { header: "METHOD", value: (r) => r.method },
    { header: "COUNT", value: (r) => r.count, align: "right" },
    { header: "AMOUNT", value: (r) => r.amount, align: "right" },
  ]);
  assertEquals(
    table,
    [
      "METHOD     COUNT   AMOUNT",
      "cash          12  1250.00",
      "card           3     9.50",
      "gift card           -0.25",
    ].join("\n"),
  );
  assertEquals(
    formatTable([{ a: "Müller", b: true }], [{ header: "NAME", value: (r) => r.a }, {
      header: "OK",
      value: (r) => r.b,
    }]),
    "NAME    OK\nMüller  yes",
  );
});

Deno.test("formatCsv() quotes per RFC 4180 with CRLF line ends", () => {
  const csv = formatCsv([{ a: 'say "hi"', b: "x,y", c: "two\nlines", d: null }], [
    { header: "a", value: (r) => r.a },
    { header: "b", value: (r) => r.b },
    { header: "c", value: (r) => r.c },
    { header: "d", value: (r) => r.d },
  ]);
  assertEquals(csv, 'a,b,c,d\r\n"say ""hi""","x,y","two\nlines",\r\n');
});

Deno.test("formatCsv() quotes stored formulas and drops control characters; the product's negative amounts stay numbers", () => {
  const rows = [
    { name: '=HYPERLINK("http://x","click")', count: -3, amount: "-12.50" },
    { name: "@SUM(A1:A2)", count: 0, amount: "0.00" },
    { name: "+1", count: 2, amount: "1250.00" },
    { name: "-2+3+cmd|' /C calc'!A0", count: null, amount: null },
    { name: "\t=1", count: 1, amount: "1.00" },
    { name: "\u0007=2\u001b[2J", count: 1, amount: "1.00" },
  ];
  const csv = formatCsv(rows, [
    { header: "name", value: (r) => r.name },
    { header: "count", value: (r) => r.count },
    { header: "amount", value: (r) => r.amount },
  ]);
  assertEquals(
    csv,
    [
      "name,count,amount",
      `"'=HYPERLINK(""http://x"",""click"")",-3,-12.50`,
      "'@SUM(A1:A2),0,0.00",
      "'+1,2,1250.00",
      "'-2+3+cmd|' /C calc'!A0,,",
      "'\t=1,1,1.00",
      "'=2,1,1.00",
      "",
    ].join("\r\n"),
  );
});

Deno.test("formatTable() prints stored text without escape sequences or control characters", () => {
  const table = formatTable([{ name: "\u001b[2J\u001b]0;owned\u0007Cleaner\r \u009b1mkit" }], [
    { header: "NAME", value: (r) => r.name },
  ]);
  assertEquals(table, "NAME\nCleaner kit");
});

Deno.test("storeTime() shows an instant in the store's time zone; retryAfterText() says when", () => {
  assertEquals(
    storeTime("2026-11-21T15:04:05.000Z", "America/New_York"),
    "2026-11-21 10:04 (America/New_York)",
  );
  const now = Date.parse("2026-11-21T15:00:00Z");
  assertMatch(retryAfterText("30", now), /^30 s \(at \d\d:\d\d\)$/);
  assertMatch(retryAfterText("720", now), /^12 minutes \(at \d\d:\d\d\)$/);
  assertMatch(retryAfterText("Sat, 21 Nov 2026 15:05:00 GMT", now), /^5 minutes/);
  assertEquals(retryAfterText(null, now), "a few minutes");
});

Deno.test("lessons summary() says why there was nothing to generate", () => {
  const none = { created: 0, skipped: { existing: 0, blockedDates: 0, closures: 0 } };
  assertStringIncludes(summary(none), "no active enrollment has a lesson in it");
  assertStringIncludes(
    summary({
      ...none,
      from: "2026-12-01",
      to: "2026-12-31",
      skipped: { ...none.skipped, closures: 2 },
    }),
    "Nothing to generate for 2026-12-01..2026-12-31: every lesson falls on",
  );
});

Deno.test("exitCodeFor(): usage and invalid input 2, failures 1", () => {
  const quiet = console.error;
  console.error = () => {};
  try {
    assertEquals(exitCodeFor(new UsageError("bad")), 2);
    assertEquals(exitCodeFor(new ValidationError([{ path: "email", message: "Invalid" }])), 2);
    assertEquals(exitCodeFor(new CliError("no server")), 1);
    assertEquals(exitCodeFor(new ConflictError("duplicate", "taken")), 1);
    assertEquals(exitCodeFor(new Error("boom")), 1);
  } finally {
    console.error = quiet;
  }
});

Deno.test("exitCodeFor(): a usage error with several mistakes prints one line each, the help once", () => {
  const quiet = console.error;
  const printed: string[] = [];
  console.error = (line: string) => printed.push(line);
  try {
    assertEquals(
      exitCodeFor(new UsageError("--timezone: wrong\n--currency: wrong"), "ops setup"),
      2,
    );
  } finally {
    console.error = quiet;
  }
  // The colour escape the error prefix may carry is matched on purpose.
  // deno-lint-ignore no-control-regex
  assertEquals(printed.map((line) => line.replace(/^.*error:(?:\x1b\[39m)? /, "")), [
    "--timezone: wrong",
    "--currency: wrong (run `ops setup --help`)",
  ]);
});

Deno.test("exitCodeFor() prints an error naming stored text without its escape sequences", () => {
  const quiet = console.error;
  const printed: string[] = [];
  console.error = (line: string) => printed.push(line);
  try {
    exitCodeFor(new ConflictError("duplicate", 'Product "\u001b[2JSax\u0007\u009b1m" exists'));
  } finally {
    console.error = quiet;
  }
  assertEquals(printed.length, 1);
  // (The "error:" prefix is red on a colour terminal; the message never carries an escape.)
  // deno-lint-ignore no-control-regex
  assertMatch(printed[0]!, /error:(?:\x1b\[39m)? Product "Sax" exists$/);
});
