/**
 * `ops drawers list [--register NAME] [--location NAME] [--status open|closed] [--limit N]`:
 * the drawer sessions, newest first, by register and cashier, on the database or through the
 * server that holds it (`GET /drawers`). The SESSION column is the id `ops report z --drawer`
 * takes (`ops report z --register NAME` reads a register's latest session without it).
 */
import type { Command } from "commander";
import { z } from "zod";
import { findStoreTimezone } from "../../app/platform/store_repo.ts";
import { drawerListQuery } from "../../app/pos/drawer_schemas.ts";
import { type DrawerSessionJson, listDrawers } from "../../app/pos/drawers.ts";
import type { Page } from "../../app/db/pagination.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput } from "../_input.ts";
import { type Column, outputFormat, printRows, storeTime, withFormatOptions } from "../_output.ts";
import { run, storeTimezoneVia } from "../_transport.ts";
import { locationDirect, locationVia, registerDirect, registerVia } from "./_pos_places.ts";

type DrawerRow = Omit<DrawerSessionJson, "zReport">;

interface ListOptions {
  register?: string;
  location?: string;
  status?: string;
  limit?: string;
  format?: string;
  json?: boolean;
}

const listInput = z.object({
  status: z.enum(["open", "closed"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

function columns(timeZone: string): Column<DrawerRow>[] {
  const time = (iso: string | null) => iso ? storeTime(iso, timeZone).replace(/ \(.*\)$/, "") : "";
  return [
    { header: "REGISTER", value: (s) => s.register?.name },
    { header: "CASHIER", value: (s) => s.cashier?.name },
    { header: "STATUS", value: (s) => s.status },
    { header: "OPENED", value: (s) => time(s.openedAt) },
    { header: "CLOSED", value: (s) => time(s.closedAt) },
    { header: "OPENING", value: (s) => s.openingBalance, align: "right" },
    { header: "EXPECTED", value: (s) => s.expectedBalance, align: "right" },
    { header: "CLOSING", value: (s) => s.closingBalance, align: "right" },
    { header: "OVER/SHORT", value: (s) => s.overShort, align: "right" },
    { header: "SESSION", value: (s) => s.id },
  ];
}

export function registerDrawersCommands(program: Command): void {
  const drawers = program.command("drawers").description("Drawer sessions of the registers");

  const list = withFormatOptions(
    drawers.command("list")
      .description("Drawer sessions, newest first, with their register and cashier")
      .option("--register <idOrName>", "only this register's sessions (name or id)")
      .option("--location <idOrName>", "only this location's sessions (name or id)")
      .option("--status <status>", "open or closed")
      .option("--limit <n>", "how many (1-100, default 25)"),
  ).action(async (options: ListOptions) => {
    const format = outputFormat(options);
    const { status, limit } = parseInput(listInput, options);
    const result = await run<{ page: Page<DrawerRow>; timeZone: string }>({
      direct: async (deps) => {
        const locationId = options.location
          ? (await locationDirect(deps, options.location)).id
          : undefined;
        const registerId = options.register
          ? (await registerDirect(deps, options.register, options.location)).id
          : undefined;
        return {
          page: await listDrawers(deps, {
            ...drawerListQuery.parse({}),
            limit,
            status,
            locationId,
            registerId,
          }),
          timeZone: await findStoreTimezone(deps.db),
        };
      },
      server: async (api) => {
        const locationId = options.location
          ? (await locationVia(api, options.location)).id
          : undefined;
        const registerId = options.register
          ? (await registerVia(api, options.register, options.location)).id
          : undefined;
        return {
          page: await api.request<Page<DrawerRow>>("GET", "/drawers", {
            query: { limit, status, locationId, registerId, sort: "openedAt", order: "desc" },
          }),
          timeZone: await storeTimezoneVia(api),
        };
      },
    });
    printRows(result.page.data, columns(result.timeZone), format, {
      json: result.page,
      empty: "No drawer sessions",
    });
  });
  describe(list, {
    examples: [
      "deno task ops drawers list",
      'deno task ops drawers list --register Front --location "Main Street" --status closed',
      "deno task ops drawers list --format csv --limit 100",
    ],
    env: BUSINESS_ENV,
  });
}
