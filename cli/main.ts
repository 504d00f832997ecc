/**
 * `ops`: the command-line driver of the same use cases the server runs (API §16).
 * Each command module exports `register…(program)`; add yours to `COMMANDS` (a line each).
 * Where a business command runs (database or server) is decided in `_transport.ts`; output
 * follows `_output.ts`; help and usage errors `_help.ts`.
 * Exit codes: 0 success, 1 failure, 2 usage error, 130 Ctrl-C at a prompt. Data goes to stdout,
 * messages to stderr.
 */
import { Command, CommanderError } from "commander";
import { APP_VERSION } from "../app/deps.ts";
import { translateDatabaseError } from "../app/db/db_errors.ts";
import { DomainError } from "../domain/errors.ts";
import { terminalText } from "../domain/printing/terminal_text.ts";
import { CliError, oneLine, UsageError } from "./_errors.ts";
import { commandPath, describeProgram, finishProgram } from "./_help.ts";
import { colorEnabled } from "./_output.ts";
import { registerServe } from "./commands/serve.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerSeed } from "./commands/seed.ts";
import { registerModules } from "./commands/modules.ts";
import { registerReport } from "./commands/report.ts";
import { registerDrawersCommands } from "./commands/drawers.ts";
import { registerLessonsCommands } from "./commands/lessons.ts";
import { registerRentalsCommands } from "./commands/rentals.ts";
import { registerUserCommands } from "./commands/user.ts";
import { registerLogin } from "./commands/login.ts";
import { registerVault } from "./commands/vault.ts";
import { registerScan } from "./commands/scan.ts";
import { registerBackupCommands } from "./commands/backup.ts";
import { registerSetup } from "./commands/setup.ts";

const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerServe,
  registerMigrate,
  registerSeed,
  registerModules,
  registerReport,
  registerDrawersCommands,
  registerLessonsCommands,
  registerRentalsCommands,
  registerUserCommands,
  registerLogin,
  registerVault,
  registerScan,
  registerBackupCommands,
  registerSetup,
];

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function buildProgram(): Command {
  const program = new Command("ops")
    .description(
      "Operate the shop back office: server, database, users, modules, reports. Business " +
        "commands work on the database directly, or through the running server's API (with " +
        "your `ops login`) when that server holds the embedded database.",
    )
    .version(APP_VERSION, "-V, --version")
    // Subcommands made with .command() inherit it: errors are thrown, not exited on.
    .exitOverride();
  for (const register of COMMANDS) register(program);
  describeProgram(program, [
    "deno task ops user create --email you@shop.test --first Ada --last Lovelace --role admin",
    "deno task ops login --server http://127.0.0.1:8000 --email you@shop.test",
    "deno task ops setup",
    'deno task ops report daily --location "Main Street" --format csv',
    "deno task ops lessons generate",
  ]);
  finishProgram(program);
  return program;
}

function printError(message: string): void {
  const prefix = colorEnabled("stderr") ? "\x1b[31merror:\x1b[39m" : "error:";
  console.error(`${prefix} ${oneLine(terminalText(message))}`);
}

/** Maps whatever a command threw to an exit code, printing one line on stderr. */
export function exitCodeFor(error: unknown, command = "ops"): number {
  if (error instanceof CommanderError) {
    // --help and --version exit 0; a command group run without a subcommand shows its help
    // as an error (commander.help, exit 1): that and every parse error are usage errors
    // (commander has printed them already).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
      return EXIT_OK;
    }
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    // Several mistakes (`ops setup`'s options) are one line each; the help is named once.
    const lines = error.message.split("\n");
    lines.forEach((line, i) =>
      printError(i === lines.length - 1 ? `${line} (run \`${command} --help\`)` : line)
    );
    return EXIT_USAGE;
  }
  if (error instanceof CliError) {
    printError(error.message);
    return error.exitCode;
  }
  const translated = error instanceof DomainError ? error : translateDatabaseError(error);
  if (translated) {
    printError(translated.message);
    // Input the rules refuse as invalid is a usage error, as the server's 400 is.
    return translated.code === "validation_failed" ? EXIT_USAGE : EXIT_FAILURE;
  }
  printError(error instanceof Error ? error.message : String(error));
  if (Deno.env.get("LOG_LEVEL") === "debug" && error instanceof Error) {
    console.error(terminalText(error.stack ?? ""));
  }
  return EXIT_FAILURE;
}

export async function runCli(args: string[]): Promise<number> {
  const program = buildProgram();
  let command = "ops";
  program.hook("preAction", (_program, action) => {
    command = commandPath(action);
  });
  try {
    await program.parseAsync(args, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    return exitCodeFor(error, command);
  }
}

if (import.meta.main) Deno.exit(await runCli(Deno.args));
