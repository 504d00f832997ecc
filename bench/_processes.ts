/**
 * The processes the bench measures, each a `deno run` child on a free local port: the real
 * server (`main.ts`), the hello-world ceiling (`_hello.ts`) and the bare stack (`_bare.ts`).
 * Every child started is pushed onto the caller's `children`, which stops them all at the end.
 * Each runs with the flags `deno task start` gives the server (deno.json), so the bare stack
 * and the ceiling run on the same V8 settings as the server they are compared with.
 */
import { JWT_SECRET } from "./_db.ts";
import { type AnyHttp, POOL_SIZE_ENV, ROOT } from "./_settings.ts";
import type { BareStatement, BenchRequest } from "./scenarios/_scenario.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** The flags of `deno run` in deno.json's start task (`-A --v8-flags=...`). */
function startFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const words = String(config.tasks.start).split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run" || words.at(-1) !== "main.ts") {
    throw new Error(`deno.json's start task is not "deno run <flags> main.ts": ${words.join(" ")}`);
  }
  return words.slice(2, -1);
}

function spawn(script: string, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...startFlags(), script],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

export async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // Already gone.
  }
  await child.status;
}

/** A started child and the base URL it answers on once up. */
export interface Started {
  child: Deno.ChildProcess;
  baseUrl: string;
}

/** The hello-world ceiling (`_hello.ts`), up. */
export async function startHello(children: Deno.ChildProcess[]): Promise<Started> {
  const port = freePort();
  const child = spawn("bench/_hello.ts", { PORT: String(port) });
  children.push(child);
  await waitFor(`http://127.0.0.1:${port}/`);
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * The real server on the bench database (a PostgreSQL URL, or `{ dataDir }` for the embedded
 * default in that data directory), with its default pool unless BENCH_DB_POOL_SIZE.
 */
export async function startServer(
  database: string | { dataDir: string },
  children: Deno.ChildProcess[],
): Promise<Started> {
  const port = freePort();
  // An empty DATABASE_URL counts as unset (app/config.ts): the embedded default in DATA_DIR.
  const where: Record<string, string> = typeof database === "string"
    ? { DATABASE_URL: database }
    : { DATABASE_URL: "", DATA_DIR: database.dataDir, FILES_DIR: `${database.dataDir}/files` };
  const child = spawn("main.ts", {
    ...where,
    PORT: String(port),
    HOST: "127.0.0.1",
    AUTH_RATE_LIMIT: "off",
    LOG_LEVEL: "warn",
    JWT_SECRET,
    APP_ENV: "development",
    // A developer's shop.env (README: Configuration) stays out of the measurement.
    SHOP_ENV_FILE: "/dev/null",
    ...POOL_SIZE_ENV,
  });
  children.push(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/v1/health`, 180_000);
  return { child, baseUrl };
}

/** Where the bare stack serves one scenario's statements: one path per captured request. */
export interface BareEndpoint {
  baseUrl: string;
  requests: BenchRequest[];
}

/**
 * The bare-stack endpoint (`_bare.ts`) for the scenarios that name a statement: scenario n's
 * paths (`/n/0`, `/n/1`, ...) run the statements each of its first requests sends
 * (`statements`, captured by `_endpoint_sql.ts`; the named statement alone at `/n/0` when none
 * were captured), or undefined when no scenario names one. Same pool size as the server.
 */
export async function startBareStack(
  scenarios: AnyHttp[],
  databaseUrl: string,
  children: Deno.ChildProcess[],
  statements: Map<AnyHttp, BareStatement[][]> = new Map(),
): Promise<{ endpoints: Map<AnyHttp, BareEndpoint> } | undefined> {
  const withStatement = scenarios.filter((s) => s.bareStatement);
  if (withStatement.length === 0) return undefined;
  const port = freePort();
  const replayed = withStatement.map((s) => statements.get(s) ?? [[s.bareStatement!]]);
  const statementsFile = await Deno.makeTempFile({ prefix: "shop-bench-bare-", suffix: ".json" });
  await Deno.writeTextFile(statementsFile, JSON.stringify(replayed));
  children.push(spawn("bench/_bare.ts", {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    BARE_STATEMENTS_FILE: statementsFile,
    ...POOL_SIZE_ENV,
  }));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/0/0`);
  // Read at its start: the file is not needed any more.
  await Deno.remove(statementsFile).catch(() => {});
  const pathsOf = (n: number) => replayed[n]!.map((_, k) => ({ path: `/${n}/${k}` }));
  return {
    endpoints: new Map(withStatement.map((s, n) => [s, { baseUrl, requests: pathsOf(n) }])),
  };
}
