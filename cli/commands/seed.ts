/** `ops seed`: the idempotent seeds (permissions, system roles, lookups, modules, store row). */
import type { Command } from "commander";
import { migrationStatus } from "../../app/db/migrate.ts";
import { runSeeds } from "../../app/seed.ts";
import { ConflictError } from "../../domain/errors.ts";
import { withRuntime } from "../_runtime.ts";

export function registerSeed(program: Command): void {
  program.command("seed")
    .description("Insert the reference data that is missing (safe to run again)")
    .action(async () => {
      await withRuntime({}, async (deps) => {
        const pending = (await migrationStatus(deps.db)).filter((m) => m.executedAt === null);
        if (pending.length > 0) {
          throw new ConflictError(
            "migrations_pending",
            `${pending.length} migration(s) are pending: run \`ops migrate up\` first`,
          );
        }
        await runSeeds(deps.db);
      });
      console.log("Seeds applied.");
    });
}
