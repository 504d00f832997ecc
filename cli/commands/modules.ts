/**
 * `ops modules list|enable|disable` (on the database, or through the server that holds it:
 * `GET /modules`, `PATCH /modules/:slug`) and `ops modules license SLUG --grant|--revoke` (on
 * the database only: the API has no licence route; asks for confirmation, `--yes`).
 */
import type { Command } from "commander";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { setModuleEnabled, setModuleLicensed } from "../../app/platform/modules.ts";
import { listModules, type ModuleRecord } from "../../app/platform/modules_repo.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { assertCanConfirm, confirm } from "../_confirm.ts";
import { UsageError } from "../_errors.ts";
import { BUSINESS_ENV, DATABASE_ENV, describe } from "../_help.ts";
import {
  type Column,
  outputFormat,
  printJson,
  printRows,
  printText,
  withFormatOptions,
} from "../_output.ts";
import { withRuntime } from "../_runtime.ts";
import { run } from "../_transport.ts";

interface FormatOptions {
  json?: boolean;
  format?: string;
}

const COLUMNS: Column<ModuleRecord>[] = [
  { header: "SLUG", value: (m) => m.slug },
  { header: "NAME", value: (m) => m.name },
  { header: "CORE", value: (m) => m.core },
  { header: "LICENSED", value: (m) => m.licensed },
  { header: "ENABLED", value: (m) => m.enabled },
];

function printModule(module: ModuleRecord, options: FormatOptions, message: string): void {
  const format = outputFormat(options);
  if (format === "json") printJson(module);
  else if (format === "csv") printRows([module], COLUMNS, format);
  else printText(message);
}

function state(module: ModuleRecord): string {
  return `${module.licensed ? "licensed" : "unlicensed"}, ${
    module.enabled ? "enabled" : "disabled"
  }`;
}

function registerToggle(modules: Command, enabled: boolean): void {
  const name = enabled ? "enable" : "disable";
  const command = withFormatOptions(
    modules.command(name)
      .description(
        enabled
          ? "Turn a licensed module on (its routes answer again)"
          : "Turn a module off (its routes answer 403 module_disabled; data is kept)",
      )
      .argument("<slug>", "module slug, e.g. vault (see `ops modules list`)"),
  ).action(async (slug: string, options: FormatOptions) => {
    const module = await run<ModuleRecord>({
      direct: (deps) => setModuleEnabled(deps, SYSTEM_ACTOR, slug, enabled),
      server: (api) =>
        api.request("PATCH", `/modules/${encodeURIComponent(slug)}`, {
          body: { enabled },
        }),
    });
    printModule(module, options, `Module "${module.slug}" is now ${state(module)}.`);
  });
  describe(command, {
    examples: [`deno task ops modules ${name} vault`],
    env: BUSINESS_ENV,
  });
}

export function registerModules(program: Command): void {
  const modules = program.command("modules")
    .description("List modules, turn them on or off, grant or revoke their licences");

  const list = withFormatOptions(
    modules.command("list").description("List every module with its licence and enabled flags"),
  ).action(async (options: FormatOptions) => {
    const rows = await run<ModuleRecord[]>({
      direct: (deps) => listModules(deps.db),
      server: async (api) => (await api.request<{ data: ModuleRecord[] }>("GET", "/modules")).data,
    });
    printRows(rows, COLUMNS, outputFormat(options), { empty: "No modules: run `ops seed`." });
  });
  describe(list, {
    examples: ["deno task ops modules list", "deno task ops modules list --json"],
    env: BUSINESS_ENV,
  });

  registerToggle(modules, true);
  registerToggle(modules, false);

  const license = withFormatOptions(
    modules.command("license")
      .description(
        "Grant or revoke a module's licence (revoking also disables it); on the database " +
          "directly, asks first (--yes when not on a terminal)",
      )
      .argument("<slug>", "module slug, e.g. vault")
      .option("--grant", "license the module (then `ops modules enable SLUG` turns it on)")
      .option("--revoke", "withdraw the licence (the module is disabled too)")
      .option("-y, --yes", "do not ask: change the licence"),
  ).action(
    async (
      slug: string,
      options: FormatOptions & { grant?: boolean; revoke?: boolean; yes?: boolean },
    ) => {
      if (Boolean(options.grant) === Boolean(options.revoke)) {
        throw new UsageError("Give exactly one of --grant or --revoke");
      }
      const licensed = Boolean(options.grant);
      assertCanConfirm({ yes: options.yes, command: `ops modules license ${slug}` });
      const module = await withRuntime({}, async (deps) => {
        const current = (await listModules(deps.db)).find((m) => m.slug === slug);
        if (!current) {
          throw new NotFoundError(
            "not_found",
            `Module "${slug}" does not exist (see \`ops modules list\`)`,
          );
        }
        if (current.licensed !== licensed && !current.core) {
          await confirm(
            licensed
              ? `Grant the licence of module "${slug}"?`
              : `Revoke the licence of module "${slug}"? It is disabled too: its routes answer ` +
                "403 module_disabled until it is licensed and enabled again.",
            { yes: options.yes, command: `ops modules license ${slug}` },
          );
        }
        return await setModuleLicensed(deps, slug, licensed);
      });
      const next = module.licensed && !module.enabled
        ? ` Turn it on with \`ops modules enable ${module.slug}\`.`
        : "";
      printModule(module, options, `Module "${module.slug}" is now ${state(module)}.${next}`);
    },
  );
  describe(license, {
    examples: [
      "deno task ops modules license vault --revoke",
      "deno task ops modules license vault --grant --yes && deno task ops modules enable vault",
    ],
    env: DATABASE_ENV,
  });
}
