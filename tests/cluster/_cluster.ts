/**
 * Three real server processes (`main.ts` children) on one fresh PostgreSQL database, the way a
 * shop runs them behind a reverse proxy: the same `JWT_SECRET`, `PUBLIC_URL` and SMTP server,
 * one `FILES_DIR` shared by all, `TRUST_PROXY=true` (the test plays the proxy and sets
 * `X-Forwarded-For`).
 *
 * The test file also gets an in-process `TestApp` on the same database (`cluster.t`): its
 * `deps` make fixtures (users with permissions and their tokens, direct inserts), and its `app`
 * is replaced by a client that sends each request to the next process in turn (a round-robin
 * proxy inside the test), so the shared fixtures of the other folders (`call`, `lessonsWorld`,
 * `storeWithOpenDrawer`, …) run against the cluster unchanged. `cluster.node(i)` addresses one
 * process directly.
 *
 * PostgreSQL only: without `TEST_DATABASE_URL` the tests are ignored (`ignore: !testServerUrl()`).
 */
import { within } from "../_helpers/within.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../server/context.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { removeDir, type ServerProcess, startServer } from "../_helpers/processes.ts";
import { type FakeSmtpServer, fakeSmtpServer } from "../email/_smtp.ts";

import { testServerUrl } from "../_helpers/test_db.ts";

export { testServerUrl };

/** The settings that must be equal on every process (README: several processes). */
export const CLUSTER_ENV = {
  JWT_SECRET: "cluster-test-secret-that-is-at-least-32-bytes",
  PUBLIC_URL: "http://shop.cluster.test",
  TRUST_PROXY: "true",
  BCRYPT_COST: "4",
} as const;

export const PROCESSES = 3;
const START_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 15_000;
/** Every request the tests send gives up after this long (a hung process fails the test). */
const REQUEST_TIMEOUT_MS = 20_000;

/** A Hono look-alike for `api()`: `request(path, init)` over HTTP to a base URL chosen per call. */
type RemoteApp = Hono<AppEnv>;

function remoteApp(pickBase: () => string, forwardedFor: () => string | undefined): RemoteApp {
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const ip = forwardedFor();
    if (ip && !headers.has("X-Forwarded-For")) headers.set("X-Forwarded-For", ip);
    return fetch(pickBase() + path, {
      ...init,
      headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  };
  return { request } as unknown as RemoteApp;
}

export interface Cluster {
  /** The in-process app on the cluster's database; its `app` is the round-robin client. */
  t: TestApp;
  nodes: ServerProcess[];
  /** A client for process `i` only (for `api()`/`call()`: `{ ...cluster.t, app: node(i) }`). */
  node(i: number): RemoteApp;
  /** `cluster.t` whose requests all go to process `i`. */
  on(i: number): TestApp;
  /** The fake SMTP server every process sends through. */
  smtp: FakeSmtpServer;
  filesDir: string;
  databaseUrl: string;
  /** Stops process `i` (SIGTERM) and starts it again on the same settings and port-free. */
  restart(i: number): Promise<void>;
  /** Stops process `i` only (start it again with `restart(i)`). */
  stopNode(i: number): Promise<void>;
  stop(): Promise<void>;
}

let clientCounter = 0;

/**
 * A fresh client address for `X-Forwarded-For`, so tests do not share the auth rate limit's
 * per-IP budget (a test about that limit sets its own header).
 */
export function freshClientIp(): string {
  const n = ++clientCounter;
  return `198.51.${(n >> 8) & 255}.${n & 255}`;
}

async function stopProcess(p: ServerProcess): Promise<void> {
  try {
    p.kill("SIGTERM");
  } catch {
    return; // Already stopped (`stopNode`).
  }
  try {
    await within(p.status, STOP_TIMEOUT_MS, `process ${p.pid} after SIGTERM`);
  } catch {
    p.kill("SIGKILL");
    await within(p.status, 5000, `process ${p.pid} after SIGKILL`).catch(() => {});
  }
}

/** Starts the cluster; `env` is added to every process (and to the in-process app). */
export async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const shared = { ...CLUSTER_ENV, ...env };
  const t = await createTestApp({ env: shared });
  const databaseUrl = t.database.url;
  if (!databaseUrl) {
    await t.close();
    throw new Error("The cluster tests need PostgreSQL (TEST_DATABASE_URL)");
  }
  const smtp = fakeSmtpServer();
  const filesDir = await Deno.makeTempDir({ prefix: "shop-cluster-files-" });
  const dataDirs: string[] = [];
  const nodes: ServerProcess[] = [];
  const cleanUp = async () => {
    await Promise.all(nodes.filter((n) => n).map(stopProcess));
    smtp.close();
    await t.close(); // Drops the database (WITH FORCE).
    await removeDir(filesDir);
    await Promise.all(dataDirs.map(removeDir));
  };
  const startNode = (dataDir: string) =>
    startServer({
      dataDir,
      timeoutMs: START_TIMEOUT_MS,
      env: {
        ...shared,
        DATABASE_URL: databaseUrl,
        FILES_DIR: filesDir,
        SMTP_URL: smtp.url,
        DB_POOL_SIZE: "6",
      },
    });
  try {
    const started = await Promise.allSettled(
      Array.from({ length: PROCESSES }, async (_, i) => {
        const dataDir = await Deno.makeTempDir({ prefix: "shop-cluster-node-" });
        dataDirs[i] = dataDir;
        return nodes[i] = await startNode(dataDir);
      }),
    );
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const bases = nodes.map((n) => n.url);
  let next = 0;
  const ip = freshClientIp();
  const roundRobin = remoteApp(() => bases[next++ % bases.length]!, () => ip);
  const node = (i: number) => remoteApp(() => bases[i]!, () => ip);
  const cluster: Cluster = {
    t: { ...t, app: roundRobin },
    nodes,
    node,
    on: (i) => ({ ...t, app: node(i) }),
    smtp,
    filesDir,
    databaseUrl,
    async restart(i) {
      await stopProcess(nodes[i]!);
      nodes[i] = await startNode(dataDirs[i]!);
      bases[i] = nodes[i]!.url;
    },
    async stopNode(i) {
      await stopProcess(nodes[i]!);
    },
    stop: cleanUp,
  };
  return cluster;
}

/**
 * Registers `beforeAll` (start the cluster) and `afterAll` (stop it) for a test file, and hands
 * the cluster to `ready` (which may go on setting up).
 */
export function withCluster(
  ready: (cluster: Cluster) => unknown,
  env: Record<string, string> = {},
): void {
  if (!testServerUrl()) return; // Every test of the file is ignored.
  let cluster: Cluster | undefined;
  Deno.test.beforeAll(async () => {
    cluster = await startCluster(env);
    await ready(cluster);
  });
  Deno.test.afterAll(async () => {
    await cluster?.stop();
  });
}

/** The process indices, in order (`for (const i of NODES)`). */
export const NODES: readonly number[] = Array.from({ length: PROCESSES }, (_, i) => i);

/** `ask(i)` of every process at once, in process order (e.g. a status seen by each one). */
export function onEveryNode<T>(ask: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(NODES.map(ask));
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let delay = 10;
  while (true) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }
}
