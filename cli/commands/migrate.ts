/**
 * `ops migrate up|down|status`: schema migrations, on the database directly. `up` is the one
 * command that may create the embedded database; `down` asks for confirmation (`--yes`).
 */
import type { Command } from "commander";
import { migrateDown, migrateToLatest, migrationStatus } from "../../app/db/migrate.ts";
import { assertCanConfirm, confirm } from "../_confirm.ts";
import { DATABASE_ENV, describe } from "../_help.ts";
import { outputFormat, printNote, printRows, printText, withFormatOptions } from "../_output.ts";
import { cliConfig, databaseLabel, embeddedPath, withRuntime } from "../_runtime.ts";

interface FormatOptions {
  json?: boolean;
  format?: string;
}

const NAME_COLUMN = [{ header: "MIGRATION", value: (name: string) => name }];

export function registerMigrate(program: Command): void {
  const migrate = program.command("migrate")
    .description("Apply, revert or list schema migrations (on the database directly)");

  const up = withFormatOptions(
    migrate.command("up", { isDefault: true })
      .description(
        "Apply every pending migration (the default; creates the embedded database if needed)",
      ),
  ).action(async (options: FormatOptions) => {
    const config = cliConfig();
    const pgdata = embeddedPath(config);
    if (pgdata && !(await Deno.stat(`${pgdata}/PG_VERSION`).catch(() => undefined))) {
      printNote(`Creating the embedded database in ${pgdata}`);
    }
    const applied = await withRuntime(
      { create: true, requireMigrated: false },
      (deps) => migrateToLatest(deps.db),
    );
    const format = outputFormat(options);
    if (format === "table" && applied.length === 0) {
      printText("Nothing to apply: the schema is up to date.");
    } else if (format === "table") {
      for (const name of applied) printText(`applied ${name}`);
      printNote("Next: `ops seed` (the reference data).");
    } else printRows(applied, NAME_COLUMN, format, { json: { applied } });
  });
  describe(up, {
    examples: [
      "deno task ops migrate",
      "DATABASE_URL=postgres://localhost/shop deno task ops migrate up",
    ],
    env: DATABASE_ENV,
  });

  const down = withFormatOptions(
    migrate.command("down")
      .description("Revert the most recent migration (asks first; --yes when not on a terminal)")
      .option("-y, --yes", "do not ask: revert it"),
  ).action(async (options: FormatOptions & { yes?: boolean }) => {
    const format = outputFormat(options);
    assertCanConfirm({ yes: options.yes, command: "ops migrate down" });
    const reverted = await withRuntime({ requireMigrated: false }, async (deps) => {
      const last = (await migrationStatus(deps.db)).filter((m) => m.executedAt !== null).at(-1);
      if (!last) return [];
      await confirm(
        `Revert migration ${last.name} on ${databaseLabel(deps.config)}? Its tables and data ` +
          "may be dropped.",
        { yes: options.yes, command: "ops migrate down" },
      );
      return await migrateDown(deps.db);
    });
    if (format === "table" && reverted.length === 0) printText("Nothing to revert.");
    else if (format === "table") { for (const name of reverted) printText(`reverted ${name}`); }
    else printRows(reverted, NAME_COLUMN, format, { json: { reverted } });
  });
  describe(down, {
    examples: ["deno task ops migrate down", "deno task ops migrate down --yes   # in a script"],
    env: DATABASE_ENV,
  });

  const status = withFormatOptions(
    migrate.command("status").description("List every migration and when it was applied"),
  ).action(async (options: FormatOptions) => {
    const list = await withRuntime(
      { requireMigrated: false },
      (deps) => migrationStatus(deps.db),
    );
    const rows = list.map((m) => ({
      name: m.name,
      applied: m.executedAt !== null,
      executedAt: m.executedAt?.toISOString() ?? null,
    }));
    printRows(rows, [
      { header: "MIGRATION", value: (m) => m.name },
      { header: "APPLIED AT (UTC)", value: (m) => m.executedAt ?? "pending" },
    ], outputFormat(options));
  });
  describe(status, {
    examples: ["deno task ops migrate status", "deno task ops migrate status --format csv"],
    env: DATABASE_ENV,
  });
}
