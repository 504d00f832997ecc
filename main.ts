/**
 * The server: load config → open the database → migrate and seed → serve. On SIGINT/SIGTERM
 * it refuses new requests, lets in-flight ones finish (up to 10 s), stops listening, closes
 * the database (a checkpoint on the embedded one) and exits 0. A start-up problem the user can
 * fix (configuration, a held data directory, an unreachable PostgreSQL) is one line on stderr
 * and exit 1.
 */
import { ConfigError } from "./app/config.ts";
import { DataDirLockedError } from "./app/db/data_dir_lock.ts";
import { DatabaseStartupError, startRuntime } from "./app/bootstrap.ts";
import { type BackgroundJobs, startBackgroundJobs } from "./app/background.ts";
import { hasAnyUser } from "./app/auth/users_repo.ts";
import { findStoreSetupGaps } from "./app/platform/store.ts";
import type { AppDeps } from "./app/deps.ts";
import { createApp } from "./server/app.ts";
import { drainingHandler } from "./server/lifecycle.ts";

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

export async function serve(): Promise<void> {
  let runtime;
  try {
    runtime = await startRuntime({ keepDevSecret: true });
  } catch (error) {
    if (
      error instanceof ConfigError || error instanceof DataDirLockedError ||
      error instanceof DatabaseStartupError
    ) {
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
  const server = running.server = Deno.serve({
    port: deps.config.port,
    hostname: deps.config.host,
    onListen: ({ hostname, port }) => {
      const base = browsableUrl(hostname, port);
      deps.logger.info("listening", {
        url: `http://${hostname}:${port}`,
        docs: `${base}/docs`,
        database: deps.dbKind,
      });
      logStartupNotes(deps, base, noUserYet, setupGaps);
    },
  }, handler.fetch);
  running.jobs = await startBackgroundJobs(runtime);
  await server.finished;
}

if (import.meta.main) await serve();
