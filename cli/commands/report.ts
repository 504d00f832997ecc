/**
 * `ops report z --drawer ID` and `ops report daily --location ID|NAME [--date D]`, with
 * `--format table|json|csv` (on the database directly). The Z report of a closed session is
 * the one frozen at close; an open session prints its X report (and says so on stderr).
 */
import type { Command } from "commander";
import { findLocationIdsByIdOrName } from "../../app/platform/locations_repo.ts";
import { getDailyReport, getDrawerReport } from "../../app/pos/reports.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { type Column, outputFormat, printRows, UsageError } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Row {
  section: string;
  field: string;
  value: unknown;
}

const COLUMNS: Column<Row>[] = [
  { header: "SECTION", value: (r) => r.section },
  { header: "FIELD", value: (r) => r.field },
  { header: "VALUE", value: (r) => r.value },
];

interface ReportShape {
  salesSummary: object;
  paymentBreakdown: { method: string; count: number; amount: string }[];
  discounts: { transactionId: string; kind: string | null; value: string | null; amount: string }[];
  cashAccountability: object;
  adjustments: { direction: string; amount: string; reason: string; createdAt: string }[];
}

/** The report as SECTION / FIELD / VALUE rows (for the table and CSV formats). */
export function reportRows(header: Record<string, unknown>, report: ReportShape): Row[] {
  const rows: Row[] = Object.entries(header).map(([field, value]) => ({
    section: "report",
    field,
    value,
  }));
  for (const [field, value] of Object.entries(report.salesSummary)) {
    rows.push({ section: "salesSummary", field, value });
  }
  for (const p of report.paymentBreakdown) {
    rows.push({ section: "paymentBreakdown", field: `${p.method}.count`, value: p.count });
    rows.push({ section: "paymentBreakdown", field: `${p.method}.amount`, value: p.amount });
  }
  for (const d of report.discounts) {
    rows.push({ section: "discounts", field: d.transactionId, value: d.amount });
  }
  for (const [field, value] of Object.entries(report.cashAccountability)) {
    rows.push({ section: "cashAccountability", field, value });
  }
  for (const a of report.adjustments) {
    rows.push({
      section: "adjustments",
      field: `${a.createdAt} ${a.direction}`,
      value: `${a.amount} ${a.reason}`,
    });
  }
  return rows;
}

export function registerReport(program: Command): void {
  const report = program.command("report").description("Point-of-sale reports (Z, daily)");

  report.command("z")
    .description("The Z report of a drawer session (X while it is still open)")
    .requiredOption("--drawer <id>", "drawer session id")
    .option("--format <format>", "table, json or csv", "table")
    .action(async (options: { drawer: string; format?: string }) => {
      const format = outputFormat(options);
      if (!UUID.test(options.drawer)) throw new UsageError("--drawer must be a session id (UUID)");
      const result = await withRuntime({}, (deps) => getDrawerReport(deps, options.drawer));
      if (result.kind === "X") console.error("note: the session is still open (X report)");
      printRows(
        reportRows({
          kind: result.kind,
          sessionId: result.sessionId,
          registerId: result.registerId,
          openedAt: result.openedAt,
          closedAt: result.closedAt,
        }, result),
        COLUMNS,
        format,
        result,
      );
    });

  report.command("daily")
    .description("The daily rollup of a location's drawer sessions")
    .requiredOption("--location <idOrName>", "location id or name")
    .option("--date <date>", "store-local date YYYY-MM-DD (default today)")
    .option("--format <format>", "table, json or csv", "table")
    .action(async (options: { location: string; date?: string; format?: string }) => {
      const format = outputFormat(options);
      if (options.date !== undefined && !DATE.test(options.date)) {
        throw new UsageError("--date must be YYYY-MM-DD");
      }
      const result = await withRuntime({}, async (deps) => {
        const ids = await findLocationIdsByIdOrName(deps.db, options.location);
        if (ids.length === 0) {
          throw new NotFoundError("not_found", `No location "${options.location}"`);
        }
        if (ids.length > 1) {
          throw new UsageError(`Several locations are named "${options.location}": use the id`);
        }
        return await getDailyReport(deps, ids[0]!, options.date);
      });
      const rows = reportRows({ locationId: result.locationId, date: result.date }, result);
      for (const s of result.sessions) {
        rows.push({
          section: "sessions",
          field: s.sessionId,
          value:
            `${s.kind} ${s.transactionCount} tx total ${s.total} expected ${s.expectedBalance}` +
            (s.overShort === null ? "" : ` over/short ${s.overShort}`),
        });
      }
      printRows(rows, COLUMNS, format, result);
    });
}
