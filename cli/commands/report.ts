/**
 * `ops report z --drawer ID` and `ops report daily [--location ID|NAME] [--date D]`, with
 * `--format table|json|csv`: on the database, or through the server that holds it
 * (`GET /drawers/:id/report`, `GET /reports/daily`). The Z report of a closed session is the
 * one frozen at close; an open session prints its X report (and says so on stderr). Without
 * `--location` the daily report is of the shop's one active location (several: name one).
 */
import type { Command } from "commander";
import { z } from "zod";
import {
  findLocation,
  findLocationIdsByIdOrName,
  listLocations,
} from "../../app/platform/locations_repo.ts";
import { findStoreTimezone } from "../../app/platform/store_repo.ts";
import { getDailyReport, getDrawerReport } from "../../app/pos/reports.ts";
import type { DailyReportJson, DrawerReportJson } from "../../app/pos/report_json.ts";
import { isoDate } from "../../app/schemas.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { type ApiClient, ApiError } from "../_api.ts";
import { CliError, UsageError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput, UUID } from "../_input.ts";
import { outputFormat, printNote, withFormatOptions } from "../_output.ts";
import { run, storeTimezoneVia } from "../_transport.ts";
import { printDailyReport, printDrawerReport } from "./_report_view.ts";

interface Located<T> {
  report: T;
  timeZone: string;
  locationName?: string;
}

function pickLocation(idOrName: string, matches: Array<{ id: string; name?: string }>) {
  if (matches.length === 0) {
    throw new NotFoundError("not_found", `No location "${idOrName}" (give its id or its name)`);
  }
  if (matches.length > 1) {
    throw new UsageError(`Several locations are named "${idOrName}": give the id instead`);
  }
  return matches[0]!;
}

type LocationPage = {
  data: Array<{ id: string; name: string }>;
  pagination: { total: number };
};

/** The shop's only active location, for `--location` left out; else a usage error. */
function onlyLocation(page: LocationPage): { id: string; name: string } {
  if (page.pagination.total === 1) return page.data[0]!;
  if (page.pagination.total === 0) {
    throw new CliError("The shop has no active location yet: set one up with `ops setup`");
  }
  const names = page.data.map((l) => `"${l.name}"`).join(", ");
  throw new UsageError(
    `The shop has ${page.pagination.total} active locations (${names}${
      page.pagination.total > page.data.length ? ", …" : ""
    }): name one with --location`,
  );
}

const ACTIVE_LOCATIONS = {
  page: 1,
  limit: 5,
  q: undefined,
  sort: "name",
  order: "asc",
  isActive: true,
} as const;

/** A 403 on the locations list: the login may still read the report of a location's id. */
function settingsViewNeeded(error: unknown, finding: string): never {
  if (error instanceof ApiError && error.status === 403) {
    throw new CliError(
      `${finding} needs the settings.view permission: give the location's id instead ` +
        `(--location UUID; ${error.message})`,
    );
  }
  throw error;
}

/** The location named `idOrName` through the API (names need settings.view: else give the id). */
async function locationVia(api: ApiClient, idOrName: string) {
  if (UUID.test(idOrName)) {
    const found = await api.request<{ name: string }>("GET", `/locations/${idOrName}`)
      .catch(() => undefined);
    return { id: idOrName, name: found?.name };
  }
  const page = await api.request<{ data: Array<{ id: string; name: string }> }>(
    "GET",
    "/locations",
    { query: { q: idOrName, limit: 100 } },
  ).catch((error) => settingsViewNeeded(error, "Finding a location by name"));
  const wanted = idOrName.toLowerCase();
  return pickLocation(idOrName, page.data.filter((l) => l.name.toLowerCase() === wanted));
}

export function registerReport(program: Command): void {
  const report = program.command("report").description("Point-of-sale reports (Z, daily)");

  const zReport = withFormatOptions(
    report.command("z")
      .description("The Z report of a drawer session (X while it is still open)")
      .requiredOption("--drawer <id>", "drawer session id"),
  ).action(async (options: { drawer: string; format?: string; json?: boolean }) => {
    const format = outputFormat(options);
    if (!UUID.test(options.drawer)) throw new UsageError("--drawer must be a session id (UUID)");
    const result = await run<Located<DrawerReportJson>>({
      direct: async (deps) => ({
        report: await getDrawerReport(deps, options.drawer),
        timeZone: await findStoreTimezone(deps.db),
      }),
      server: async (api) => ({
        report: await api.request<DrawerReportJson>("GET", `/drawers/${options.drawer}/report`),
        timeZone: await storeTimezoneVia(api),
      }),
    });
    if (result.report.kind === "X") printNote("note: the session is still open (X report)");
    printDrawerReport(result.report, {
      format,
      heading: `${result.report.kind} report of drawer session ${result.report.sessionId}`,
      timeZone: result.timeZone,
    });
  });
  describe(zReport, {
    examples: [
      "deno task ops report z --drawer 0193a8c4-5b1e-7c2d-9e3f-0a1b2c3d4e5f",
      "deno task ops report z --drawer 0193a8c4-5b1e-7c2d-9e3f-0a1b2c3d4e5f --json",
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
          const { id } = options.location === undefined
            ? onlyLocation(await listLocations(deps.db, ACTIVE_LOCATIONS))
            : pickLocation(
              options.location,
              (await findLocationIdsByIdOrName(deps.db, options.location)).map((id) => ({ id })),
            );
          return {
            report: await getDailyReport(deps, id, date),
            timeZone: await findStoreTimezone(deps.db),
            locationName: (await findLocation(deps.db, id))?.name,
          };
        },
        server: async (api) => {
          const location = options.location === undefined
            ? onlyLocation(
              await api.request<LocationPage>("GET", "/locations", {
                query: { isActive: "true", limit: 5 },
              }).catch((error) => settingsViewNeeded(error, "Finding the shop's location")),
            )
            : await locationVia(api, options.location);
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
