/**
 * `ops`: the command-line driver of the same use cases the server runs (API §16).
 * Each command module exports `register…(program)`; add yours to `COMMANDS` (a line each).
 * Exit codes: 0 success, 1 failure, 2 usage error. Data goes to stdout, messages to stderr.
 */
import { Command, CommanderError } from "commander";
import { ConfigError } from "../app/config.ts";
import { DataDirLockedError } from "../app/db/data_dir_lock.ts";
import { translateDatabaseError } from "../app/db/db_errors.ts";
import { APP_VERSION } from "../app/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { UsageError } from "./_output.ts";
import { DatabaseBusyError } from "./_runtime.ts";
import { registerServe } from "./commands/serve.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerSeed } from "./commands/seed.ts";
import { registerModules } from "./commands/modules.ts";
import { registerReport } from "./commands/report.ts";
import { registerLessonsCommands } from "./commands/lessons.ts";
import { registerUserCommands } from "./commands/user.ts";
import { registerLogin } from "./commands/login.ts";

const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerServe,
  registerMigrate,
  registerSeed,
  registerModules,
  registerReport,
  registerLessonsCommands,
  registerUserCommands,
  registerLogin,
];

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function buildProgram(): Command {
  const program = new Command("ops")
    .description("Operate the shop back office: server, database, modules and more")
    .version(APP_VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    // Subcommands made with .command() inherit both: errors are thrown, not exited on.
    .exitOverride()
    .configureOutput({ writeErr: (text) => Deno.stderr.writeSync(new TextEncoder().encode(text)) });
  for (const register of COMMANDS) register(program);
  return program;
}

/** Maps whatever a command threw to an exit code, printing a message on stderr. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version exit 0; a command group run without a subcommand shows its help
    // as an error (commander.help, exit 1): that and every parse error are usage errors.
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
      return EXIT_OK;
    }
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    console.error(`error: ${error.message}\n(run with --help for usage)`);
    return EXIT_USAGE;
  }
  const translated = error instanceof DomainError ? error : translateDatabaseError(error);
  if (translated) {
    console.error(`error: ${translated.message}`);
    return EXIT_FAILURE;
  }
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError || error instanceof DatabaseBusyError
  ) {
    console.error(`error: ${error.message}`);
    return EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`error: ${message}`);
  if (Deno.env.get("LOG_LEVEL") === "debug" && error instanceof Error) console.error(error.stack);
  return EXIT_FAILURE;
}

export async function runCli(args: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(args, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    return exitCodeFor(error);
  }
}

if (import.meta.main) Deno.exit(await runCli(Deno.args));
