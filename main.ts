/**
 * The server: load config → open the database → migrate and seed → serve. On SIGINT/SIGTERM
 * it stops accepting connections, lets in-flight requests finish (up to 10 s), closes the
 * database (a checkpoint on the embedded one) and exits 0.
 */
import { ConfigError } from "./app/config.ts";
import { DataDirLockedError } from "./app/db/data_dir_lock.ts";
import { startRuntime } from "./app/bootstrap.ts";
import { createApp } from "./server/app.ts";

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
  const app = createApp(deps);
  const server = Deno.serve({
    port: deps.config.port,
    hostname: deps.config.host,
    onListen: ({ hostname, port }) =>
      deps.logger.info("listening", { url: `http://${hostname}:${port}`, database: deps.dbKind }),
  }, app.fetch);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("shutting down", { signal });
    const timeout = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS));
    await Promise.race([server.shutdown(), timeout]);
    await runtime.close();
    deps.logger.info("stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  await server.finished;
}

if (import.meta.main) await serve();
