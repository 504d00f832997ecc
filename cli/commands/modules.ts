/** `ops modules list`, `ops modules license SLUG --grant|--revoke` (on the database directly). */
import type { Command } from "commander";
import { setModuleLicensed } from "../../app/platform/modules.ts";
import { listModules, type ModuleRecord } from "../../app/platform/modules_repo.ts";
import { outputFormat, printJson, printRows, UsageError } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";

export function registerModules(program: Command): void {
  const modules = program.command("modules")
    .description("List modules and grant or revoke their licences");

  modules.command("list")
    .description("List every module with its licence and enabled flags")
    .option("--json", "print as JSON")
    .action(async (options: { json?: boolean }) => {
      const rows = await withRuntime({}, (deps) => listModules(deps.db));
      printRows<ModuleRecord>(rows, [
        { header: "SLUG", value: (m) => m.slug },
        { header: "NAME", value: (m) => m.name },
        { header: "CORE", value: (m) => m.core },
        { header: "LICENSED", value: (m) => m.licensed },
        { header: "ENABLED", value: (m) => m.enabled },
      ], outputFormat(options));
    });

  modules.command("license")
    .description("Grant or revoke a module's licence (revoking also disables it)")
    .argument("<slug>", "module slug, e.g. vault")
    .option("--grant", "license the module")
    .option("--revoke", "withdraw the licence (the module is disabled too)")
    .option("--json", "print the module as JSON")
    .action(
      async (slug: string, options: { grant?: boolean; revoke?: boolean; json?: boolean }) => {
        if (Boolean(options.grant) === Boolean(options.revoke)) {
          throw new UsageError("Give exactly one of --grant or --revoke");
        }
        const licensed = Boolean(options.grant);
        const module = await withRuntime({}, (deps) => setModuleLicensed(deps, slug, licensed));
        if (options.json) printJson(module);
        else {
          console.log(
            `Module "${module.slug}" is now ${module.licensed ? "licensed" : "unlicensed"} ` +
              `(${module.enabled ? "enabled" : "disabled"}).`,
          );
        }
      },
    );
}
