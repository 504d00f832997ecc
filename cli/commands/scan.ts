/**
 * `ops scan CODE [--format table|json|csv]`: what a scanned or typed code names (API §17,
 * `GET /scan/:code`), on the database directly (as the system: every kind) or through the
 * server that holds it (as the logged-in user: the kinds they may view). Several matches exit
 * 1 naming each candidate; a misread barcode exits 1 with `invalid_check_digit`.
 *
 * Besides kind, label and id it prints what the clerk asks next, read from the record: a
 * ticket's or rental's status, account and balance due, a unit's status, a product's price and
 * stock, an account's contact, a receipt's status and total. The table lists them one a line
 * (field, value); CSV has one column each; `--json` prints the whole answer.
 */
import type { Command } from "commander";
import { scanCode, type ScanKind, type ScanResult } from "../../app/counter/scan.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { ConflictError } from "../../domain/errors.ts";
import { ApiError } from "../_api.ts";
import { CliError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import {
  type Column,
  type OutputFormat,
  outputFormat,
  printRows,
  withFormatOptions,
} from "../_output.ts";
import { run } from "../_transport.ts";

interface Candidate {
  kind: string;
  id: string;
  label: string;
}

/** The record's fields worth a line, by kind (header, field of the record), in this order. */
const DETAILS: Readonly<Record<ScanKind, ReadonlyArray<readonly [string, string]>>> = {
  product: [
    ["SKU", "sku"],
    ["UPC", "upc"],
    ["Price", "price"],
    ["On hand", "qtyOnHand"],
    ["Type", "type"],
    ["Active", "isActive"],
  ],
  unit: [["Serial", "serialNumber"], ["Status", "status"], ["Condition", "condition"]],
  repair_ticket: [
    ["Ticket", "ticketNumber"],
    ["Status", "status"],
    ["Account", "accountName"],
    ["Item", "itemDescription"],
    ["Serial", "serialNumber"],
    ["Due date", "dueDate"],
    ["Estimate", "estimate"],
    ["Balance due", "balanceDue"],
  ],
  rental: [
    ["Rental", "rentalNumber"],
    ["Status", "status"],
    ["Account", "accountName"],
    ["Instrument", "productName"],
    ["Serial", "serialNumber"],
    ["Due date", "dueDate"],
    ["Overdue", "isOverdue"],
    ["Balance due", "balanceDue"],
  ],
  account: [
    ["Account", "accountNumber"],
    ["Name", "name"],
    ["Email", "email"],
    ["Phone", "phone"],
  ],
  transaction: [
    ["Receipt", "receiptNumber"],
    ["Type", "type"],
    ["Status", "status"],
    ["Total", "total"],
    ["Balance due", "balanceDue"],
    ["Completed", "completedAt"],
  ],
};

/** Kind, label, id and the kind's details: the columns of the answer. */
function columnsOf(result: ScanResult): Column<ScanResult>[] {
  const record = (result.record ?? {}) as Record<string, unknown>;
  return [
    { header: "Kind", value: (r) => r.kind },
    { header: "Label", value: (r) => r.label },
    { header: "Id", value: (r) => r.id },
    ...(Object.hasOwn(DETAILS, result.kind) ? DETAILS[result.kind] : []).map(([header, field]) => ({
      header,
      value: () => record[field],
    })),
  ];
}

/** The answer as a table of one field a line, or one CSV row, or the JSON. */
function printResult(result: ScanResult, format: OutputFormat): void {
  const columns = columnsOf(result);
  if (format !== "table") return printRows([result], columns, format, { json: result });
  printRows(
    columns.map((column) => [column.header, column.value(result)] as const),
    [
      { header: "Field", value: (row) => row[0] },
      { header: "Value", value: (row) => row[1] },
    ],
    format,
  );
}

function ambiguity(candidates: readonly Candidate[]): CliError {
  const named = candidates.map((c) => `${c.kind} ${c.label} (${c.id})`).join("; ");
  return new CliError(`${candidates.length} records match this code: ${named} (ambiguous)`);
}

export function registerScan(program: Command): void {
  const scan = withFormatOptions(
    program.command("scan")
      .description(
        "Find the record a scanned or typed code names (SKU, UPC, serial, R-/L-/A-/S- number)",
      )
      .argument("<code>", "the code, as scanned or typed"),
  ).action(async (code: string, options: { format?: string; json?: boolean }) => {
    const format = outputFormat(options);
    let result: ScanResult;
    try {
      result = await run<ScanResult>({
        direct: (deps) => scanCode(deps, SYSTEM_ACTOR, code),
        server: (api) => api.request<ScanResult>("GET", `/scan/${encodeURIComponent(code.trim())}`),
      });
    } catch (error) {
      if (error instanceof ConflictError && error.code === "ambiguous") {
        throw ambiguity((error.extensions?.candidates ?? []) as Candidate[]);
      }
      if (error instanceof ApiError && error.code === "ambiguous") {
        throw ambiguity((error.problem.candidates ?? []) as Candidate[]);
      }
      throw error;
    }
    printResult(result, format);
  });
  describe(scan, {
    examples: [
      "deno task ops scan 036000291452",
      "deno task ops scan R-000123 --json",
      "deno task ops scan VN-2231          # a customer's instrument by its repair ticket's serial",
      "deno task ops scan S-0001234",
    ],
    env: BUSINESS_ENV,
  });
}
