/**
 * `ops status` (API §16): the server processes (their URLs, pids, since when), the database
 * engine and size, the schema version, the vault's state, the last backup and the outbox's
 * backlog, for people: sizes in KiB/MiB/GiB and times in the store's time zone.
 *
 * On the database directly (DATABASE_URL, or an embedded database no server holds) the servers
 * and the vault are what the live processes report in their registry (app/backup/status.ts):
 * several processes on one PostgreSQL are all listed, and the vault is unlocked when they say
 * so. While a server holds the embedded database, through that server (`GET /v1/status`) like
 * other commands.
 */
import type { Command } from "commander";
import { hostname } from "node:os";
import {
  type DatabaseStatus,
  databaseStatus,
  type RunningServer,
  type ShopStatus,
} from "../../app/backup/status.ts";
import { findStoreTimezone } from "../../app/platform/store_repo.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { byteSize, outputFormat, printRows, storeTime, withFormatOptions } from "../_output.ts";
import { cliConfig } from "../_runtime.ts";
import { run, storeTimezoneVia } from "../_transport.ts";

type Status = DatabaseStatus & {
  /** The URL clients use: the one gone through, or the configured PUBLIC_URL / HOST:PORT. */
  server: string;
  serverRunning: boolean;
};

function serverLine(s: RunningServer, timeZone: string): string {
  if (!s.startedAt) return `${s.url} (running: this command went through it)`;
  const where = s.host && s.host !== hostname() ? ` on ${s.host}` : "";
  const pid = s.pid === null ? "" : `pid ${s.pid}${where}, `;
  return `${s.url ?? "(address not reported)"} (${pid}running since ${
    storeTime(s.startedAt, timeZone)
  })`;
}

function vaultLine(s: Status): string {
  if (!s.vault.initialized) return "not initialized";
  if (!s.serverRunning) return "locked (no server running: the key lives in a server's memory)";
  const unlocked = s.servers.filter((server) => server.vaultUnlocked).length;
  if (s.servers.length > 1 && unlocked > 0 && unlocked < s.servers.length) {
    return `unlocked on ${unlocked} of ${s.servers.length} servers`;
  }
  return s.vault.locked ? "locked" : "unlocked";
}

function lines(s: Status, timeZone: string): Array<{ item: string; value: string }> {
  const backup = s.lastBackup
    ? `${storeTime(s.lastBackup.finishedAt, timeZone)}, ${byteSize(s.lastBackup.bytes)}, ` +
      s.lastBackup.location
    : "never";
  const servers = s.servers.length > 0
    ? s.servers.map((server) => ({ item: "server", value: serverLine(server, timeZone) }))
    : [{ item: "server", value: `not running (configured: ${s.server})` }];
  return [
    ...servers,
    {
      item: "database",
      value: `${s.engine === "postgres" ? "PostgreSQL" : "embedded"}, ${byteSize(s.databaseBytes)}`,
    },
    {
      item: "schema",
      value: `${s.schemaVersion ?? "none"}` +
        (s.pendingMigrations > 0 ? ` (${s.pendingMigrations} pending)` : " (up to date)"),
    },
    { item: "vault", value: vaultLine(s) },
    { item: "last backup", value: backup },
    { item: "outbox", value: `${s.outbox.pending} pending, ${s.outbox.failed} failed` },
  ];
}

export function registerStatus(program: Command): void {
  const status = withFormatOptions(
    program.command("status").description(
      "The running servers, database engine and size, schema version, vault state, last " +
        "backup and outbox backlog",
    ),
  ).action(async (options: { json?: boolean; format?: string }) => {
    const { result, timeZone } = await run<{ result: Status; timeZone: string }>({
      direct: async (deps) => {
        const found = await databaseStatus(deps);
        return {
          result: {
            ...found,
            server: cliConfig().publicUrl,
            serverRunning: found.servers.length > 0,
          },
          timeZone: await findStoreTimezone(deps.db),
        };
      },
      server: async (api) => {
        const found = await api.request<ShopStatus>("GET", "/status");
        return {
          result: {
            ...found,
            // The process that answered (its own registry row is not reachable through it).
            servers: [{
              url: api.server,
              pid: null,
              host: null,
              startedAt: "",
              vaultUnlocked: !found.vault.locked,
            }],
            server: api.server,
            serverRunning: true,
          },
          timeZone: await storeTimezoneVia(api),
        };
      },
    });
    const format = outputFormat(options);
    if (format === "json") printRows([result], [], "json", { json: result });
    else {
      printRows(lines(result, timeZone), [
        { header: "ITEM", value: (l) => l.item },
        { header: "VALUE", value: (l) => l.value },
      ], format);
    }
  });
  describe(status, {
    examples: ["deno task ops status", "deno task ops status --json"],
    env: BUSINESS_ENV,
  });
}
