/**
 * `ops vault status|init|unlock|lock|change-password` (API §12, §16): always through the
 * running server (the vault's key lives in that server's memory), with the token of
 * `ops login` or `OPS_SERVER`/`OPS_TOKEN`. Master passwords are prompted without echo on a
 * terminal (asked twice when a new one is set), or read from stdin with `--password-stdin`
 * (`change-password`: the current one on the first line, the new one on the second).
 * Refusals are one line naming the fix; exit codes 0 success, 1 failure, 2 usage error.
 */
import type { Command } from "commander";
import type { VaultStatus } from "../../app/vault/vault_schemas.ts";
import { masterPasswordProblem } from "../../domain/vault/master_password.ts";
import { ApiClient, ApiError } from "../_api.ts";
import { CliError, UsageError } from "../_errors.ts";
import { describe, SERVER_ENV } from "../_help.ts";
import { type Column, outputFormat, printRows, printText, withFormatOptions } from "../_output.ts";
import { promptNewSecret, promptSecret } from "../_secrets.ts";
import { targetSession } from "../_transport.ts";

interface PasswordOptions {
  passwordStdin?: boolean;
}

/** The server's API with the current login; none → one line naming `ops login`. */
async function vaultApi(): Promise<ApiClient> {
  const session = await targetSession();
  const server = session.server;
  if (!session.token) {
    throw new CliError(
      `Not logged in to ${server}: run \`ops login --server ${server} --email E\` (or set ` +
        "OPS_SERVER and OPS_TOKEN); the vault is opened through the running server",
    );
  }
  return new ApiClient(server, session);
}

/** The server's refusal as one line that says what to do (`wrong`: a wrong master password). */
function explain(error: unknown, server: string, wrong: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const fix = (message: string) => new CliError(message, { cause: error });
  switch (error.code) {
    case "vault_not_initialized":
      return fix(
        `The vault on ${server} is not initialized: set its master password with ` +
          "`ops vault init`",
      );
    case "vault_locked":
      return fix(`The vault on ${server} is locked: run \`ops vault unlock\` first`);
    case "invalid_master_password":
      return fix(wrong);
    case "already_initialized":
      return fix(
        `The vault on ${server} is already initialized: unlock it with \`ops vault unlock\` ` +
          "(or change its password with `ops vault change-password`)",
      );
    case "rate_limited": {
      const at = error.message.indexOf("retry in");
      return fix(
        "Too many wrong master passwords from your user (5 within 15 minutes): " +
          (at >= 0 ? error.message.slice(at) : "retry later"),
      );
    }
    case "module_disabled":
      return fix(
        `The vault module is disabled on ${server}: enable it with \`ops modules enable vault\``,
      );
  }
  return error;
}

async function call<T>(
  api: ApiClient,
  method: string,
  path: string,
  body?: unknown,
  wrong = "Wrong master password: nothing was changed",
): Promise<T> {
  try {
    return await api.request<T>(method, `/vault${path}`, { body });
  } catch (error) {
    throw explain(error, api.server, wrong);
  }
}

/** The lines of stdin (`--password-stdin`): `count` non-empty lines are needed. */
async function stdinLines(count: number, what: string): Promise<string[]> {
  if (Deno.stdin.isTerminal()) {
    throw new UsageError("--password-stdin reads a pipe or a file, not the terminal");
  }
  const text = await new Response(Deno.stdin.readable).text();
  const lines = text.split(/\r?\n/).slice(0, count);
  if (lines.length < count || lines.some((line) => line === "")) {
    throw new UsageError(`--password-stdin: expected ${what} on stdin`);
  }
  return lines;
}

function checkNew(password: string): string {
  const problem = masterPasswordProblem(password);
  if (problem) throw new UsageError(problem);
  return password;
}

/**
 * A new master password typed twice on the terminal (without echo); a too short (or long) one
 * is asked again.
 */
function promptNew(question: string): Promise<string> {
  return promptNewSecret(
    question,
    masterPasswordProblem,
    () => new CliError("The two passwords differ: nothing was changed"),
  );
}

async function readNewPassword(options: PasswordOptions): Promise<string> {
  if (options.passwordStdin) {
    return checkNew((await stdinLines(1, "the new master password on one line"))[0]!);
  }
  return await promptNew("New master password (at least 12 characters): ");
}

async function readCurrentPassword(options: PasswordOptions): Promise<string> {
  if (options.passwordStdin) {
    return (await stdinLines(1, "the master password on one line"))[0]!;
  }
  return await promptSecret("Master password: ");
}

interface StatusRow extends VaultStatus {
  server: string;
}

const STATUS_COLUMNS: Column<StatusRow>[] = [
  { header: "server", value: (s) => s.server },
  { header: "initialized", value: (s) => s.initialized },
  { header: "locked", value: (s) => s.locked },
];

function statusLine(row: StatusRow): string {
  if (!row.initialized) {
    return `Vault on ${row.server}: not initialized (set a master password with \`ops vault init\`).`;
  }
  return row.locked
    ? `Vault on ${row.server}: locked (open it with \`ops vault unlock\`).`
    : `Vault on ${row.server}: unlocked.`;
}

const PASSWORD_STDIN = "read the master password from stdin instead of prompting";

export function registerVault(program: Command): void {
  const vault = program.command("vault").description(
    "The secrets vault of the running server: status, init, unlock, lock, change-password " +
      "(through the server, with your `ops login`)",
  );

  const status = withFormatOptions(
    vault.command("status").description("Show whether the vault is initialized and unlocked"),
  ).action(async (options: { json?: boolean; format?: string }) => {
    const format = outputFormat(options);
    const api = await vaultApi();
    const state = await call<VaultStatus>(api, "GET", "/status");
    const row: StatusRow = { server: api.server, ...state };
    if (format === "table") printText(statusLine(row));
    else printRows([row], STATUS_COLUMNS, format, { json: row });
  });
  describe(status, {
    examples: ["deno task ops vault status", "deno task ops vault status --json"],
    env: SERVER_ENV,
  });

  const init = vault.command("init")
    .description("Set the vault's master password (once); the vault is unlocked afterwards")
    .option("--password-stdin", "read the new master password from stdin instead of prompting")
    .action(async (options: PasswordOptions) => {
      const api = await vaultApi();
      const masterPassword = await readNewPassword(options);
      await call(api, "POST", "/initialize", { masterPassword });
      printText(
        `Vault initialized on ${api.server} and unlocked. Keep the master password safe: ` +
          "without it nothing in the vault can be recovered.",
      );
    });
  describe(init, {
    examples: [
      "deno task ops vault init",
      'printf "%s\\n" "$MASTER_PASSWORD" | deno task ops vault init --password-stdin',
    ],
    env: SERVER_ENV,
  });

  const unlock = vault.command("unlock")
    .description("Unlock the vault with the master password (until the server stops or `lock`)")
    .option("--password-stdin", PASSWORD_STDIN)
    .action(async (options: PasswordOptions) => {
      const api = await vaultApi();
      const masterPassword = await readCurrentPassword(options);
      await call(
        api,
        "POST",
        "/unlock",
        { masterPassword },
        "Wrong master password: the vault stays locked",
      );
      printText(`Vault unlocked on ${api.server}.`);
    });
  describe(unlock, {
    examples: [
      "deno task ops vault unlock",
      'printf "%s\\n" "$MASTER_PASSWORD" | deno task ops vault unlock --password-stdin',
    ],
    env: SERVER_ENV,
  });

  const lock = vault.command("lock")
    .description("Lock the vault (the server forgets its key)")
    .action(async () => {
      const api = await vaultApi();
      await call(api, "POST", "/lock");
      printText(`Vault locked on ${api.server}.`);
    });
  describe(lock, { examples: ["deno task ops vault lock"], env: SERVER_ENV });

  const change = vault.command("change-password")
    .description(
      "Change the master password (the vault must be unlocked; entries stay as they are)",
    )
    .option(
      "--password-stdin",
      "read the current master password (first line) and the new one (second line) from stdin",
    )
    .action(async (options: PasswordOptions) => {
      const api = await vaultApi();
      let currentPassword: string;
      let newPassword: string;
      if (options.passwordStdin) {
        [currentPassword, newPassword] = (await stdinLines(
          2,
          "the current and the new master password, one per line",
        )) as [string, string];
        checkNew(newPassword);
      } else {
        currentPassword = await promptSecret("Current master password: ");
        newPassword = await promptNew("New master password (at least 12 characters): ");
      }
      await call(
        api,
        "POST",
        "/change-master-password",
        { currentPassword, newPassword },
        "Wrong current master password: nothing was changed",
      );
      printText(`Master password changed on ${api.server}; the vault stays unlocked.`);
    });
  describe(change, {
    examples: [
      "deno task ops vault change-password",
      'printf "%s\\n%s\\n" "$OLD" "$NEW" | deno task ops vault change-password --password-stdin',
    ],
    env: SERVER_ENV,
  });
}
