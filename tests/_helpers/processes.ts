/**
 * Child processes for end-to-end tests: the `ops` CLI and the real server (`main.ts`) on an
 * embedded data directory of the test's own, plus a data directory prepared with a user.
 */
import { openDatabase } from "../../app/db/connect.ts";
import { embeddedTemplateFile, testServerUrl } from "./test_db.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The environment of a child: embedded database in `dataDir` unless `env` says otherwise, and
 * no settings file (a developer's `shop.env` in the repository stays out of the tests).
 * Without `dataDir` (a child running in a shop directory of its own, see `inShop`), neither
 * DATA_DIR nor SHOP_ENV_FILE is set: the child reads that directory's `shop.env` and `./data`.
 */
export function childEnv(
  dataDir: string | undefined,
  env: Record<string, string> = {},
): Record<string, string> {
  const base = Deno.env.toObject();
  delete base["DATABASE_URL"];
  delete base["TEST_DATABASE_URL"];
  delete base["OPS_SERVER"];
  delete base["OPS_TOKEN"];
  delete base["DATA_DIR"];
  delete base["SHOP_ENV_FILE"];
  return {
    ...base,
    ...(dataDir === undefined ? {} : { DATA_DIR: dataDir, SHOP_ENV_FILE: "/dev/null" }),
    APP_ENV: "development",
    JWT_SECRET: "process-test-secret-that-is-at-least-32-bytes",
    BCRYPT_COST: "4",
    LOG_LEVEL: "info",
    NO_COLOR: "1",
    ...env,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Where a child runs: on a data directory of the test's own (from the repository, or from
 * `cwd` with the project's deno.json), or, with `shopDir`, in that directory as a shop owner
 * runs `deno task …` in the shop's directory (`./shop.env`, `./data`).
 */
export type ChildPlace = { dataDir: string; shopDir?: undefined; cwd?: string } | {
  shopDir: string;
  dataDir?: undefined;
  cwd?: undefined;
};

function childCommand(script: "main.ts" | "cli/main.ts", place: ChildPlace) {
  const where = place.shopDir ?? place.cwd;
  return where === undefined ? { args: ["run", "-A", script], cwd: ROOT } : {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}${script}`],
    cwd: where,
  };
}

/** Runs `deno run -A cli/main.ts ...args` and collects its output. */
export async function runOps(
  args: string[],
  options: ChildPlace & { env?: Record<string, string>; stdin?: string },
): Promise<CliResult> {
  const command = childCommand("cli/main.ts", options);
  const child = new Deno.Command(Deno.execPath(), {
    args: [...command.args, ...args],
    cwd: command.cwd,
    env: childEnv(options.dataDir, options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  stderr(): string;
  kill(signal: Deno.Signal): void;
  /** Resolves with the exit status once the process has ended. */
  status: Promise<Deno.CommandStatus>;
}

async function collectLines(
  stream: ReadableStream<Uint8Array>,
  lines: string[],
  onLine: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      onLine(line);
    }
  }
  if (buffer) {
    lines.push(buffer);
    onLine(buffer);
  }
}

/**
 * Starts `deno run -A main.ts` on a free port and waits for its `listening` log line.
 * Rejects (with its stderr) when the process ends before listening.
 */
export async function startServer(
  options: ChildPlace & { env?: Record<string, string>; timeoutMs?: number },
): Promise<ServerProcess> {
  const command = childCommand("main.ts", options);
  const child = new Deno.Command(Deno.execPath(), {
    args: command.args,
    cwd: command.cwd,
    env: childEnv(options.dataDir, { PORT: "0", ...options.env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  let stderrText = "";
  let resolveUrl!: (url: string) => void;
  const listening = new Promise<string>((resolve) => (resolveUrl = resolve));
  collectLines(child.stdout, lines, (line) => {
    try {
      const entry = JSON.parse(line);
      if (entry.msg === "listening") resolveUrl(entry.url);
    } catch {
      // Not a log line.
    }
  }).catch(() => {});
  const stderrDone = collectLines(child.stderr, [], (line) => (stderrText += line + "\n"))
    .catch(() => {});
  const status = child.status.then(async (s) => {
    await stderrDone;
    return s;
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = await Promise.race([
    listening,
    status.then((s) => {
      throw new Error(`The server exited (code ${s.code}) before listening:\n${stderrText}`);
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("The server did not start in time")), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  return {
    url,
    pid: child.pid,
    lines,
    stderr: () => stderrText,
    kill: (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
    status,
  };
}

export interface PreparedDataDir {
  dataDir: string;
  /** An active user holding the `admin` system role (for X-Dev-User with DEV_BYPASS). */
  adminEmail: string;
}

/**
 * A fresh embedded data directory, migrated and seeded and without any user: the embedded
 * tests' template, extracted.
 */
export async function extractTemplateDataDir(): Promise<string> {
  const dataDir = await Deno.makeTempDir({ prefix: "shop-proc-" });
  // Where openDatabase({ dataDir }) keeps PostgreSQL's files (app/db/connect.ts).
  const pgdata = `${dataDir}/pgdata`;
  await Deno.mkdir(pgdata);
  const untar = await new Deno.Command("tar", {
    args: ["-xzf", await embeddedTemplateFile(), "-C", pgdata],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!untar.success) {
    throw new Error(
      `tar could not extract the template: ${new TextDecoder().decode(untar.stderr)}`,
    );
  }
  return dataDir;
}

/**
 * A fresh embedded data directory, migrated and seeded (the embedded tests' template, extracted:
 * the server's first start on an empty directory has tests of its own), with an admin user.
 */
export async function prepareDataDir(): Promise<PreparedDataDir> {
  const dataDir = await extractTemplateDataDir();
  const handle = await openDatabase({ dataDir });
  const adminEmail = "admin@example.test";
  try {
    const id = crypto.randomUUID();
    await handle.db.insertInto("users").values({
      id,
      email: adminEmail,
      first_name: "Ada",
      last_name: "Admin",
      employee_number: "0001",
    }).execute();
    const role = await handle.db.selectFrom("roles").select("id").where("slug", "=", "admin")
      .executeTakeFirstOrThrow();
    await handle.db.insertInto("user_roles").values({ user_id: id, role_id: role.id }).execute();
  } finally {
    await handle.close();
  }
  return { dataDir, adminEmail };
}

export async function removeDir(path: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {});
}

/**
 * `Deno.test` for a file whose tests spawn children on embedded data directories only
 * (`childEnv` drops DATABASE_URL) and touch no test database: they run in the embedded run;
 * under TEST_DATABASE_URL the file registers nothing (no tests, no hooks), since the
 * PostgreSQL run would repeat them unchanged and only cost CI minutes.
 */
export const embeddedRunTest: typeof Deno.test = testServerUrl() === undefined
  ? Deno.test
  : Object.assign(() => {}, {
    ignore: () => {},
    only: () => {},
    beforeAll: () => {},
    afterAll: () => {},
    beforeEach: () => {},
    afterEach: () => {},
  }) as unknown as typeof Deno.test;
