/**
 * `ops login [--server URL] --email E [--password-stdin]` stores a token for later server calls
 * (every command that goes through the server uses it); `ops whoami` shows who that is
 * (`GET /auth/me`); `ops logout` forgets it. `OPS_SERVER`/`OPS_TOKEN` override the stored login.
 */
import type { Command } from "commander";
import type { User } from "../../app/auth/auth_schemas.ts";
import { ApiClient } from "../_api.ts";
import {
  credentialsPath,
  currentSession,
  loadCredentials,
  normalizeServer,
  removeCredentials,
  saveCredentials,
} from "../_credentials.ts";
import { CliError, UsageError } from "../_errors.ts";
import { describe, SERVER_ENV } from "../_help.ts";
import {
  type Column,
  outputFormat,
  printJson,
  printNote,
  printRows,
  printText,
  storeTime,
  withFormatOptions,
} from "../_output.ts";
import { readSecret } from "../_secrets.ts";
import { storeTimezoneVia, targetServer } from "../_transport.ts";

export interface LoginOptions {
  server?: string;
  email: string;
  passwordStdin?: boolean;
}

export interface LoginResult {
  server: string;
  email: string;
  roles: string[];
  expiresAt: string;
  path: string;
}

/**
 * The server to log in to: --server, else OPS_SERVER, the server holding the embedded
 * database, the stored login's, this machine's (cli/_transport.ts).
 */
async function serverFor(option: string | undefined): Promise<string> {
  const server = normalizeServer(option ?? await targetServer());
  if (!/^https?:\/\/[^/]/.test(server)) {
    throw new UsageError(`--server: not an http(s) URL: "${server}"`);
  }
  return server;
}

/** Logs in through the server's API and stores the token. */
export async function loginCommand(
  options: LoginOptions,
  readPassword: () => Promise<string> = () =>
    readSecret(options.passwordStdin, `Password for ${options.email}: `),
): Promise<LoginResult> {
  const server = await serverFor(options.server);
  const password = await readPassword();
  const body = await new ApiClient(server).request<
    { accessToken: string; expiresIn: number; user: User }
  >("POST", "/auth/login", { body: { email: options.email, password } });
  const expiresAt = new Date(Date.now() + Number(body.expiresIn) * 1000).toISOString();
  const path = await saveCredentials({
    server,
    email: body.user.email,
    token: body.accessToken,
    expiresAt,
  });
  return {
    server,
    email: body.user.email,
    roles: body.user.roles.map((r) => r.name),
    expiresAt,
    path,
  };
}

interface WhoAmI {
  server: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
  token: "OPS_TOKEN" | "stored login";
  expiresAt: string | null;
}

const WHOAMI_COLUMNS: Column<WhoAmI>[] = [
  { header: "server", value: (w) => w.server },
  { header: "email", value: (w) => w.email },
  { header: "firstName", value: (w) => w.firstName },
  { header: "lastName", value: (w) => w.lastName },
  { header: "roles", value: (w) => w.roles.join(" ") },
  { header: "token", value: (w) => w.token },
  { header: "expiresAt", value: (w) => w.expiresAt },
];

export function registerLogin(program: Command): void {
  const login = withFormatOptions(
    program.command("login")
      .description("Log in to a running server and store the token for later commands")
      .option(
        "--server <url>",
        "server URL (default: OPS_SERVER, the server holding the embedded database, the last " +
          "login's, or this machine's)",
      )
      .requiredOption("--email <email>", "your email")
      .option("--password-stdin", "read the password from stdin instead of prompting"),
  ).action(async (options: LoginOptions & { json?: boolean; format?: string }) => {
    const format = outputFormat(options);
    const result = await loginCommand(options);
    if (format !== "table") {
      return format === "json" ? printJson(result) : printRows([result], [
        { header: "server", value: (r) => r.server },
        { header: "email", value: (r) => r.email },
        { header: "expiresAt", value: (r) => r.expiresAt },
      ], format);
    }
    const api = new ApiClient(result.server, { ...(await loadCredentials()), source: "stored" });
    const until = storeTime(result.expiresAt, await storeTimezoneVia(api));
    printText(
      `Logged in to ${result.server} as ${result.email} (roles: ${
        result.roles.join(", ") || "none"
      }) ` +
        `until ${until}. Commands that go through the server use this login.`,
    );
  });
  describe(login, {
    examples: [
      "deno task ops login --server http://127.0.0.1:8000 --email ada@shop.test",
      'echo "$PASSWORD" | deno task ops login --email ada@shop.test --password-stdin',
    ],
    env: SERVER_ENV,
  });

  const whoami = withFormatOptions(
    program.command("whoami").description("Show the server and user of the current login"),
  ).action(async (options: { json?: boolean; format?: string }) => {
    const format = outputFormat(options);
    const session = await currentSession();
    if (!session.token || !session.server) {
      throw new CliError(
        "Not logged in: run `ops login --server URL --email E` (or set OPS_SERVER and OPS_TOKEN)",
      );
    }
    const api = new ApiClient(session.server, session);
    const me = await api.request<User>("GET", "/auth/me");
    const who: WhoAmI = {
      server: session.server,
      email: me.email,
      firstName: me.firstName,
      lastName: me.lastName,
      roles: me.roles.map((r) => r.slug),
      token: session.source === "env" ? "OPS_TOKEN" : "stored login",
      expiresAt: session.expiresAt ?? null,
    };
    if (format !== "table") return printRows([who], WHOAMI_COLUMNS, format, { json: who });
    const roles = me.roles.map((r) => r.name).join(", ") || "none";
    const expires = who.expiresAt
      ? `, valid until ${storeTime(who.expiresAt, await storeTimezoneVia(api))}`
      : "";
    printText(
      [
        `Server:  ${who.server}`,
        `User:    ${me.email} (${me.firstName} ${me.lastName})`,
        `Roles:   ${roles}`,
        `Token:   ${
          session.source === "env" ? "OPS_TOKEN" : `stored login (${credentialsPath()})`
        }${expires}`,
      ].join("\n"),
    );
  });
  describe(whoami, {
    examples: ["deno task ops whoami", "deno task ops whoami --json"],
    env: SERVER_ENV,
  });

  const logout = program.command("logout")
    .description("Forget the stored login (the token stays valid until it expires)")
    .action(async () => {
      const removed = await removeCredentials();
      if (removed) printText(`Logged out of ${removed.server} (${removed.email}).`);
      else printText("Not logged in: there was no stored login.");
      if (Deno.env.get("OPS_TOKEN")) {
        printNote("note: OPS_TOKEN is still set in your environment");
      }
    });
  describe(logout, { examples: ["deno task ops logout"], env: SERVER_ENV });
}
