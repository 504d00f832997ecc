/**
 * `ops report z --drawer ID | --register NAME [--location L]` and `ops report daily [--location
 * ID|NAME] [--date D]`, with `--format table|json|csv`: on the database, or through the server
 * that holds it (`GET /drawers/:id/report`, `GET /reports/daily`). `--register` takes the
 * register's latest session (the last opened). The Z report of a closed session is the one
 * frozen at close; an open session prints its X report (and says so on stderr). Without
 * `--location` the daily report is of the shop's one active location (several: name one).
 */
import type { Command } from "commander";
import { z } from "zod";
import { findLocation } from "../../app/platform/locations_repo.ts";
import { findStoreTimezone } from "../../app/platform/store_repo.ts";
import { getDailyReport, getDrawerReport } from "../../app/pos/reports.ts";
import type { DailyReportJson, DrawerReportJson } from "../../app/pos/report_json.ts";
import { isoDate } from "../../app/schemas.ts";
import { UsageError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput, UUID } from "../_input.ts";
import { outputFormat, printNote, withFormatOptions } from "../_output.ts";
import { run, storeTimezoneVia } from "../_transport.ts";
import {
  latestSessionDirect,
  latestSessionVia,
  locationOrOnlyDirect,
  locationOrOnlyVia,
  registerDirect,
  registerVia,
} from "./_pos_places.ts";
import { printDailyReport, printDrawerReport } from "./_report_view.ts";

interface Located<T> {
  report: T;
  timeZone: string;
  locationName?: string;
}

interface ZOptions {
  drawer?: string;
  register?: string;
  location?: string;
  format?: string;
  json?: boolean;
}

/** Which session `ops report z` reads: `--drawer`, or `--register`'s latest. */
function zTarget(options: ZOptions): { drawer: string } | { register: string } {
  if (options.drawer !== undefined && options.register !== undefined) {
    throw new UsageError("Give --drawer or --register, not both");
  }
  if (options.drawer !== undefined) {
    if (!UUID.test(options.drawer)) throw new UsageError("--drawer must be a session id (UUID)");
    if (options.location !== undefined) throw new UsageError("--location goes with --register");
    return { drawer: options.drawer };
  }
  if (options.register !== undefined) return { register: options.register };
  throw new UsageError("Give --register NAME (its latest session) or --drawer ID");
}

/** `Z report of register Front, cashier Ana Cruz` (the session id when the server named none). */
function zHeading(report: DrawerReportJson): string {
  const name = report.register?.name
    ? `register ${report.register.name}`
    : `drawer session ${report.sessionId}`;
  return `${report.kind} report of ${name}` +
    (report.cashier ? `, cashier ${report.cashier.name}` : "");
}

export function registerReport(program: Command): void {
  const report = program.command("report").description("Point-of-sale reports (Z, daily)");

  const zReport = withFormatOptions(
    report.command("z")
      .description(
        "The Z report of a drawer session (X while it is still open): a register's latest " +
          "session, or the session with that id",
      )
      .option("--register <idOrName>", "register name or id: its latest session")
      .option("--location <idOrName>", "with --register: the register's location")
      .option("--drawer <id>", "drawer session id (see `ops drawers list`)"),
  ).action(async (options: ZOptions) => {
    const format = outputFormat(options);
    const target = zTarget(options);
    const result = await run<Located<DrawerReportJson>>({
      direct: async (deps) => {
        const id = "drawer" in target ? target.drawer : await latestSessionDirect(
          deps,
          await registerDirect(deps, target.register, options.location),
        );
        return {
          report: await getDrawerReport(deps, id),
          timeZone: await findStoreTimezone(deps.db),
        };
      },
      server: async (api) => {
        const id = "drawer" in target ? target.drawer : await latestSessionVia(
          api,
          await registerVia(api, target.register, options.location),
        );
        return {
          report: await api.request<DrawerReportJson>("GET", `/drawers/${id}/report`),
          timeZone: await storeTimezoneVia(api),
        };
      },
    });
    if (result.report.kind === "X") printNote("note: the session is still open (X report)");
    printDrawerReport(result.report, {
      format,
      heading: zHeading(result.report),
      timeZone: result.timeZone,
    });
  });
  describe(zReport, {
    examples: [
      "deno task ops report z --register Front",
      'deno task ops report z --register Front --location "Main Street" --json',
      "deno task ops report z --drawer 0193a8c4-5b1e-7c2d-9e3f-0a1b2c3d4e5f",
    ],
    env: BUSINESS_ENV,
  });

  const daily = withFormatOptions(
    report.command("daily")
      .description("The daily rollup of a location's drawer sessions")
      .option(
        "--location <idOrName>",
        "location id or name (may be left out when the shop has one active location)",
      )
      .option("--date <date>", "store-local date YYYY-MM-DD (default: today)"),
  ).action(
    async (options: { location?: string; date?: string; format?: string; json?: boolean }) => {
      const format = outputFormat(options);
      const { date } = parseInput(z.object({ date: isoDate.optional() }), { date: options.date });
      const result = await run<Located<DailyReportJson>>({
        direct: async (deps) => {
          const { id } = await locationOrOnlyDirect(deps, options.location);
          return {
            report: await getDailyReport(deps, id, date),
            timeZone: await findStoreTimezone(deps.db),
            locationName: (await findLocation(deps.db, id))?.name,
          };
        },
        server: async (api) => {
          const location = await locationOrOnlyVia(api, options.location);
          return {
            report: await api.request<DailyReportJson>("GET", "/reports/daily", {
              query: { locationId: location.id, date },
            }),
            timeZone: await storeTimezoneVia(api),
            locationName: location.name,
          };
        },
      });
      printDailyReport(result.report, {
        format,
        heading: `Daily report: ${result.locationName ?? result.report.locationId}, ` +
          result.report.date,
        timeZone: result.timeZone,
      });
    },
  );
  describe(daily, {
    examples: [
      "deno task ops report daily                       # the shop's one location, today",
      'deno task ops report daily --location "Main Street"',
      'deno task ops report daily --location "Main Street" --date 2026-11-21 --format csv',
    ],
    env: BUSINESS_ENV,
  });
}
