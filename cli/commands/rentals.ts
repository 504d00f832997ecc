/**
 * `ops rentals bill [--through D]`: creates the rental charges due up to a date (for cron;
 * idempotent) on the database, or through the server that holds it
 * (`POST /rentals/charges/generate`). A progress bar on a terminal, a one-line summary always.
 */
import type { Command } from "commander";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { generateCharges } from "../../app/rentals/charges.ts";
import {
  generateChargesBody,
  type GenerateChargesResult,
} from "../../app/rentals/rental_schemas.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput } from "../_input.ts";
import { type Column, outputFormat, printRows, printText, withFormatOptions } from "../_output.ts";
import { withActivity, withProgressBar } from "../_progress.ts";
import { run } from "../_transport.ts";

interface BillOptions {
  through?: string;
  json?: boolean;
  format?: string;
}

/** The one-line summary of a run (also when there was nothing to bill, with the reason). */
export function summary(result: GenerateChargesResult): string {
  if (result.rentals === 0) {
    return `Nothing to bill through ${result.through}: no active rental (rent a unit out first).`;
  }
  return `Rental charges through ${result.through}: created ${result.created}, skipped ` +
    `${result.skipped} already billed, ${result.rentals} active rentals.`;
}

const COLUMNS: Column<GenerateChargesResult>[] = [
  { header: "THROUGH", value: (r) => r.through },
  { header: "CREATED", value: (r) => r.created, align: "right" },
  { header: "SKIPPED", value: (r) => r.skipped, align: "right" },
  { header: "RENTALS", value: (r) => r.rentals, align: "right" },
];

export function registerRentalsCommands(program: Command): void {
  const rentals = program.command("rentals").description("Rental billing tasks");

  const bill = withFormatOptions(
    rentals.command("bill")
      .description(
        "Create every rental charge due up to a date (default: today, store time zone): one " +
          "per active rental and billing period; idempotent, safe to run from cron",
      )
      .option("--through <date>", "bill periods starting on or before this date, YYYY-MM-DD"),
  ).action(async (options: BillOptions) => {
    const format = outputFormat(options);
    const input = parseInput(generateChargesBody, { through: options.through }, {
      through: "--through",
    }) ?? {};
    const result = await run<GenerateChargesResult>({
      direct: (deps) =>
        withProgressBar(
          "Billing rentals",
          (update) =>
            generateCharges(deps, SYSTEM_ACTOR, { through: input.through, onProgress: update }),
        ),
      server: async (api) =>
        await withActivity(
          `Billing rentals on ${api.server}`,
          () =>
            api.request<GenerateChargesResult>("POST", "/rentals/charges/generate", {
              body: input,
            }),
        ),
    });
    if (format === "table") printText(summary(result));
    else printRows([result], COLUMNS, format, { json: result });
  });
  describe(bill, {
    examples: [
      "deno task ops rentals bill",
      "deno task ops rentals bill --through 2026-12-31 --json",
      "0 4 * * * cd /srv/shop && deno task ops rentals bill   # crontab: nightly",
    ],
    env: BUSINESS_ENV,
  });
}
