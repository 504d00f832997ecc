/** `ops login --server URL --email E [--password-stdin]`: a token for later server calls. */
import type { Command } from "commander";
import { saveCredentials } from "../_credentials.ts";
import { printJson, UsageError } from "../_output.ts";
import { readSecret } from "../_secrets.ts";

export interface LoginOptions {
  server?: string;
  email: string;
  passwordStdin?: boolean;
  json?: boolean;
}

/** Logs in through the server's API and stores the token; returns where it was stored. */
export async function loginCommand(
  options: LoginOptions,
  readPassword: () => Promise<string> = () =>
    readSecret(options.passwordStdin, `Password for ${options.email}: `),
): Promise<{ path: string; server: string; expiresAt: string }> {
  const server = (options.server ?? Deno.env.get("OPS_SERVER"))?.replace(/\/+$/, "");
  if (!server) throw new UsageError("Give --server URL (or set OPS_SERVER)");
  if (!/^https?:\/\//.test(server)) throw new UsageError(`Not an http(s) URL: ${server}`);
  const password = await readPassword();
  let response: Response;
  try {
    response = await fetch(`${server}/v1/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: options.email, password }),
    });
  } catch (error) {
    throw new Error(`Cannot reach ${server}: ${error instanceof Error ? error.message : error}`);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(`Login refused (${response.status} ${body.code ?? ""}): ${body.detail ?? ""}`);
  }
  const expiresAt = new Date(Date.now() + Number(body.expiresIn) * 1000).toISOString();
  const path = await saveCredentials({
    server,
    email: body.user?.email ?? options.email,
    token: body.accessToken,
    expiresAt,
  });
  return { path, server, expiresAt };
}

export function registerLogin(program: Command): void {
  program.command("login")
    .description("Log in to a running server and store the token for later commands")
    .option("--server <url>", "server base URL, e.g. http://127.0.0.1:8000 (or OPS_SERVER)")
    .requiredOption("--email <email>", "your email")
    .option("--password-stdin", "read the password from stdin instead of prompting")
    .option("--json", "print the result as JSON")
    .action(async (options: LoginOptions) => {
      const result = await loginCommand(options);
      if (options.json) printJson(result);
      else {console.error(
          `Logged in to ${result.server} until ${result.expiresAt} (${result.path}).`,
        );}
    });
}
