/** `ops seed`: the idempotent seeds (permissions, system roles, lookups, modules, store row). */
import type { Command } from "commander";
import { runSeeds } from "../../app/seed.ts";
import { DATABASE_ENV, describe } from "../_help.ts";
import { printText } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";

export function registerSeed(program: Command): void {
  const seed = program.command("seed")
    .description("Insert the reference data that is missing (safe to run again)")
    .action(async () => {
      // A database with pending migrations is refused (one line naming `ops migrate up`).
      await withRuntime({}, (deps) => runSeeds(deps.db));
      printText("Seeds applied.");
    });
  describe(seed, {
    examples: ["deno task ops migrate up && deno task ops seed"],
    env: DATABASE_ENV,
  });
}
