/**
 * The server: load config (the environment over `shop.env`, app/config.ts) → check that the
 * port is free → open the database → migrate and seed → serve. On SIGINT/SIGTERM it refuses
 * new requests, lets in-flight ones finish (up to 10 s), stops listening, closes the database
 * (a checkpoint on the embedded one) and exits 0. A start-up problem the user can fix
 * (configuration, a port in use, a held or moved data directory, an unreachable PostgreSQL) is
 * one line on stderr and exit 1, before anything is created.
 */
import { ConfigError, loadShopConfig } from "./app/config.ts";
import { DataDirLockedError } from "./app/db/data_dir_lock.ts";
import { DataDirMovedError } from "./app/db/moved_marker.ts";
import { DatabaseStartupError, startRuntime } from "./app/bootstrap.ts";
import { type BackgroundJobs, startBackgroundJobs } from "./app/background.ts";
import { hasAnyUser } from "./app/auth/users_repo.ts";
import { findStoreSetupGaps } from "./app/platform/store.ts";
import type { AppDeps } from "./app/deps.ts";
import { createApp } from "./server/app.ts";
import { drainingHandler } from "./server/lifecycle.ts";
import { assertCanListen, ListenError, portInUseMessage } from "./server/listen_check.ts";

const SHUTDOWN_GRACE_MS = 10_000;

/** A URL a browser on this machine can open (`0.0.0.0` and `::` listen everywhere). */
function browsableUrl(hostname: string, port: number): string {
  if (hostname === "0.0.0.0") return `http://localhost:${port}`;
  if (hostname === "::") return `http://[::1]:${port}`;
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

/** Warnings and hints logged once at start-up, before anyone has to ask. */
function logStartupNotes(
  deps: AppDeps,
  base: string,
  noUserYet: boolean,
  setupGaps: string[],
): void {
  if (deps.config.devBypass) {
    deps.logger.warn(
      "DEV_BYPASS is on: any request with an X-Dev-User header acts as that user, no token " +
        "needed (development only; never expose this server)",
    );
  }
  if (noUserYet) {
    deps.logger.info(
      "No user yet: register the first one (it becomes Admin), then log in with " +
        "`deno task ops login` (see First steps in README.md)",
      { register: `POST ${base}/v1/auth/register`, docs: `${base}/docs` },
    );
  }
  if (setupGaps.length > 0) {
    deps.logger.info(
      `The shop is not set up yet (${setupGaps.join(", ")}): run \`deno task ops setup\` ` +
        "for its name, address, time zone, currency, tax rates and first location and " +
        "register (see Setting up the shop in README.md)",
      { setup: "deno task ops setup" },
    );
  }
}

/** A start-up problem the user fixes: one line on stderr, exit 1. */
function isStartupProblem(error: unknown): error is Error {
  return error instanceof ConfigError || error instanceof ListenError ||
    error instanceof DataDirLockedError || error instanceof DataDirMovedError ||
    error instanceof DatabaseStartupError;
}

export async function serve(): Promise<void> {
  let runtime;
  try {
    const config = loadShopConfig();
    // Before the database: a port in use must not leave a new data directory behind.
    assertCanListen(config.host, config.port);
    runtime = await startRuntime({ config, keepDevSecret: true });
  } catch (error) {
    if (isStartupProblem(error)) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
  const { deps } = runtime;
  // Unknown (e.g. MIGRATE_ON_START=false on an empty database): no hint rather than a wrong one.
  const noUserYet = await hasAnyUser(deps.db).then((any) => !any, () => false);
  const setupGaps = await findStoreSetupGaps(deps.db).catch(() => []);
  const handler = drainingHandler(createApp(deps).fetch);
  // Filled in once listening; `stop` may run before (a signal during start-up).
  const running: { server?: Deno.HttpServer; jobs?: BackgroundJobs } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("shutting down", { signal });
    const drained = await handler.drain(SHUTDOWN_GRACE_MS);
    if (!drained) deps.logger.warn("requests still running after the grace period");
    if (running.server) {
      await Promise.race([
        running.server.shutdown(),
        new Promise((resolve) => setTimeout(resolve, 1000)),
      ]);
    }
    await running.jobs?.stop();
    await runtime.close();
    deps.logger.info("stopped");
    Deno.exit(0);
  };
  // Listen for signals before announcing the port: a signal arriving right after the
  // `listening` line (or while background jobs start) must find the handler in place.
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  let address = { hostname: deps.config.host, port: deps.config.port };
  let server: Deno.HttpServer;
  try {
    server = running.server = Deno.serve({
      port: deps.config.port,
      hostname: deps.config.host,
      // Called before Deno.serve returns (the port PORT=0 picked).
      onListen: (listening) => (address = listening),
    }, handler.fetch);
  } catch (error) {
    // Taken between the check at start-up and now.
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(portInUseMessage(deps.config.host, deps.config.port));
    await runtime.close();
    Deno.exit(1);
  }
  const base = browsableUrl(address.hostname, address.port);
  // Before the `listening` line: a command refused by the embedded database's lock from then
  // on finds this server by it.
  await runtime.announce(base).catch((error) =>
    deps.logger.warn("could not record the URL in the data directory's lock", {
      error: error instanceof Error ? error.message : String(error),
    })
  );
  deps.logger.info("listening", {
    url: `http://${address.hostname}:${address.port}`,
    docs: `${base}/docs`,
    database: deps.dbKind,
  });
  logStartupNotes(deps, base, noUserYet, setupGaps);
  running.jobs = await startBackgroundJobs(runtime, { url: base });
  await server.finished;
}

if (import.meta.main) await serve();
