/**
 * The server: load config → open the database → migrate and seed → serve. On SIGINT/SIGTERM
 * it refuses new requests, lets in-flight ones finish (up to 10 s), stops listening, closes
 * the database (a checkpoint on the embedded one) and exits 0.
 */
import { ConfigError } from "./app/config.ts";
import { DataDirLockedError } from "./app/db/data_dir_lock.ts";
import { startRuntime } from "./app/bootstrap.ts";
import { type BackgroundJobs, startBackgroundJobs } from "./app/background.ts";
import { createApp } from "./server/app.ts";
import { drainingHandler } from "./server/lifecycle.ts";

const SHUTDOWN_GRACE_MS = 10_000;

export async function serve(): Promise<void> {
  let runtime;
  try {
    runtime = await startRuntime();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
  const { deps } = runtime;
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
    onListen: ({ hostname, port }) =>
      deps.logger.info("listening", { url: `http://${hostname}:${port}`, database: deps.dbKind }),
  }, handler.fetch);
  running.jobs = await startBackgroundJobs(runtime);
  await server.finished;
}

if (import.meta.main) await serve();
