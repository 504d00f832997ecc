/** `ops migrate up|down|status`: schema migrations, on the database directly. */
import type { Command } from "commander";
import { migrateDown, migrateToLatest, migrationStatus } from "../../app/db/migrate.ts";
import { outputFormat, printJson, printRows } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";

export function registerMigrate(program: Command): void {
  const migrate = program.command("migrate")
    .description("Apply, revert or list schema migrations (on the database directly)");

  migrate.command("up", { isDefault: true })
    .description("Apply every pending migration (the default)")
    .option("--json", "print the applied migrations as JSON")
    .action(async (options: { json?: boolean }) => {
      const applied = await withRuntime({}, (deps) => migrateToLatest(deps.db));
      if (options.json) printJson({ applied });
      else if (applied.length === 0) console.log("Nothing to apply: the schema is up to date.");
      else for (const name of applied) console.log(`applied ${name}`);
    });

  migrate.command("down")
    .description("Revert the most recent migration")
    .option("--json", "print the reverted migration as JSON")
    .action(async (options: { json?: boolean }) => {
      const reverted = await withRuntime({}, (deps) => migrateDown(deps.db));
      if (options.json) printJson({ reverted });
      else if (reverted.length === 0) console.log("Nothing to revert.");
      else for (const name of reverted) console.log(`reverted ${name}`);
    });

  migrate.command("status")
    .description("List every migration and when it was applied")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) => {
      const status = await withRuntime({}, (deps) => migrationStatus(deps.db));
      printRows(
        status,
        [
          { header: "MIGRATION", value: (m) => m.name },
          { header: "APPLIED AT", value: (m) => m.executedAt ?? "pending" },
        ],
        outputFormat(options),
        status.map((m) => ({
          name: m.name,
          applied: m.executedAt !== null,
          executedAt: m.executedAt?.toISOString() ?? null,
        })),
      );
    });
}
