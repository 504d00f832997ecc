/**
 * `ops status` (API §16): the server (its URL, and whether it answers), the database engine and
 * size, the schema version, the vault's state, the last backup and the outbox's backlog — on
 * the database directly, or through the server (`GET /v1/status`) like other commands.
 */
import type { Command } from "commander";
import { type ShopStatus, shopStatus } from "../../app/backup/status.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { outputFormat, printRows, withFormatOptions } from "../_output.ts";
import { cliConfig } from "../_runtime.ts";
import { run } from "../_transport.ts";

type Status = ShopStatus & { server: string; serverRunning: boolean };

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(1500) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function lines(s: Status): Array<{ item: string; value: string }> {
  const backup = s.lastBackup
    ? `${s.lastBackup.finishedAt} (UTC), ${mib(s.lastBackup.bytes)}, ${s.lastBackup.location}`
    : "never";
  return [
    { item: "server", value: `${s.server} (${s.serverRunning ? "running" : "not running"})` },
    { item: "database", value: `${s.engine}, ${mib(s.databaseBytes)}` },
    {
      item: "schema",
      value: `${s.schemaVersion ?? "none"}` +
        (s.pendingMigrations > 0 ? ` (${s.pendingMigrations} pending)` : " (up to date)"),
    },
    {
      item: "vault",
      value: !s.vault.initialized ? "not initialized" : s.vault.locked ? "locked" : "unlocked",
    },
    { item: "last backup", value: backup },
    { item: "outbox", value: `${s.outbox.pending} pending, ${s.outbox.failed} failed` },
  ];
}

export function registerStatus(program: Command): void {
  const status = withFormatOptions(
    program.command("status").description(
      "Server URL, database engine and size, schema version, vault state, last backup and " +
        "outbox backlog",
    ),
  ).action(async (options: { json?: boolean; format?: string }) => {
    const result = await run<Status>({
      direct: async (deps) => {
        const server = cliConfig().publicUrl;
        // On the database directly the vault is locked here: its key lives in a server's memory.
        return { ...(await shopStatus(deps)), server, serverRunning: await answers(server) };
      },
      server: async (api) => ({
        ...(await api.request<ShopStatus>("GET", "/status")),
        server: api.server,
        serverRunning: true,
      }),
    });
    const format = outputFormat(options);
    if (format === "json") printRows([result], [], "json", { json: result });
    else {
      printRows(lines(result), [
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
