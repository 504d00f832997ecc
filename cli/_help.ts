/**
 * Help and usage errors the same way on every command: an EXAMPLES and an ENVIRONMENT section
 * (which database or server a command touches), a typo'd option reported as unknown before any
 * required option is reported missing, and usage errors on one line naming the `--help` to run.
 */
import type { Command, Option } from "commander";
import { oneLine } from "./_errors.ts";

const ENVIRONMENT: Record<string, string> = {
  DATABASE_URL: "postgres://… of a PostgreSQL database; unset: the embedded one in DATA_DIR",
  DATA_DIR: "the embedded database (DATA_DIR/pgdata; default ./data)",
  SHOP_ENV_FILE: "the settings file (default ./shop.env): the server's variables not set here",
  OPS_SERVER: "a server URL: business commands go through it (instead of the database)",
  OPS_TOKEN: "a bearer token for OPS_SERVER (instead of the stored login)",
  OPS_CONFIG_DIR: "where `ops login` keeps its token (default ~/.config/shop-ops)",
  PORT: "`ops serve`: the port to listen on (default 8000; HOST: 127.0.0.1)",
  NO_COLOR: "set: no colour, even on a terminal",
  LOG_LEVEL: "debug: stack traces with errors",
};

/** The variables of a command that works on the database, or through the server when one holds it. */
export const BUSINESS_ENV = [
  "DATABASE_URL",
  "DATA_DIR",
  "SHOP_ENV_FILE",
  "OPS_SERVER",
  "OPS_TOKEN",
  "OPS_CONFIG_DIR",
];
/** The variables of a command that works on the database only. */
export const DATABASE_ENV = ["DATABASE_URL", "DATA_DIR", "SHOP_ENV_FILE"];
/** The variables of a command that talks to a server only. */
export const SERVER_ENV = ["OPS_SERVER", "OPS_TOKEN", "OPS_CONFIG_DIR"];

function section(title: string, lines: string[]): string {
  return `\n${title}:\n${lines.map((line) => `  ${line}`).join("\n")}`;
}

function environmentLines(names: readonly string[]): string[] {
  const width = Math.max(...names.map((n) => n.length));
  return names.map((name) => `${name.padEnd(width)}  ${ENVIRONMENT[name] ?? ""}`);
}

/** Adds the EXAMPLES and ENVIRONMENT sections to a command's help (each line one example). */
export function describe(
  command: Command,
  help: { examples: string[]; env?: readonly string[] },
): Command {
  command.addHelpText("after", section("Examples", help.examples.map((e) => `$ ${e}`)));
  const env = [...(help.env ?? []), "NO_COLOR"];
  command.addHelpText("after", section("Environment", environmentLines(env)));
  return command;
}

/** The whole ENVIRONMENT section, for `ops --help`. */
export function describeProgram(program: Command, examples: string[]): Command {
  program.addHelpText("after", section("Examples", examples.map((e) => `$ ${e}`)));
  program.addHelpText("after", section("Environment", environmentLines(Object.keys(ENVIRONMENT))));
  program.addHelpText(
    "after",
    "\nExit codes: 0 success, 1 failure, 2 usage error, 130 interrupted (Ctrl-C at a prompt). " +
      "Data on stdout, messages on stderr.",
  );
  return program;
}

/** `ops user create` for the `create` command under `user`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/**
 * Applies the house rules to every command of the finished program: required options are
 * checked after unknown ones (commander checks them first, so `--emial x` was reported as
 * `--email` missing), and usage errors are one line naming the help to read.
 */
export function finishProgram(program: Command): void {
  for (const command of everyCommand(program)) {
    const required: Option[] = command.options.filter((o) => o.mandatory);
    for (const option of required) {
      option.mandatory = false;
      option.description = `${option.description} (required)`;
    }
    if (required.length > 0) {
      command.hook("preAction", (_self, action) => {
        if (action !== command) return;
        for (const option of required) {
          if (command.getOptionValue(option.attributeName()) === undefined) {
            command.error(`error: required option '${option.flags}' not specified`, {
              code: "commander.missingMandatoryOptionValue",
              exitCode: 2,
            });
          }
        }
      });
    }
    const help = `run \`${commandPath(command)} --help\``;
    command.configureOutput({
      writeErr: (text) => Deno.stderr.writeSync(new TextEncoder().encode(text)),
      outputError: (text, write) => write(`${oneLine(text)} (${help})\n`),
    });
  }
}
