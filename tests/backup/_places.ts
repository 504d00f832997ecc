/**
 * Where the round trips run: an embedded source served by the real server (with a login for
 * `ops`), PostgreSQL databases of their own, `ops` as a child process with a timeout.
 */
import postgres from "postgres";
import { openDatabase } from "../../app/db/connect.ts";
import { hashSecret } from "../../app/auth/passwords.ts";
import { type CliResult, prepareDataDir, runOps } from "../_helpers/processes.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import { ADMIN_EMAIL } from "./_shop.ts";

export const PASSWORD = "a long owner password";

/** A migrated, seeded data directory whose admin can log in with {@link PASSWORD}. */
export async function embeddedSource(): Promise<string> {
  const { dataDir } = await prepareDataDir();
  const handle = await openDatabase({ dataDir });
  try {
    await handle.db.updateTable("users").set({ password_hash: await hashSecret(PASSWORD, 4) })
      .where("email", "=", ADMIN_EMAIL).execute();
  } finally {
    await handle.close();
  }
  return dataDir;
}

export async function loginToken(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
    signal: AbortSignal.timeout(20_000),
  });
  const body = await response.json();
  if (!body.accessToken) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.accessToken;
}

/** A new, empty PostgreSQL database on the test server; `drop` removes it. */
export async function emptyPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = testServerUrl()!;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  const name = `shop_backup_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}

/** `ops ...args` as a child process that must end within `timeoutMs`. */
export async function opsWithin(
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; stdin?: string },
  timeoutMs = 60_000,
): Promise<CliResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`ops ${args.join(" ")} did not finish in ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([runOps(args, options), timeout]);
    return {
      ...result,
      stderr: result.stderr.replace(/^Blocking waiting for file lock[^\n]*\n/gm, ""),
    };
  } finally {
    clearTimeout(timer);
  }
}
