/**
 * Background work of a server process, started after the database is open and stopped
 * before it closes: membership of the cluster (PostgreSQL: several processes on one
 * database), the email outbox worker and periodic housekeeping. A feature with a job adds it
 * here.
 */
import type { Runtime } from "./bootstrap.ts";
import { startOutboxWorker } from "./email/outbox_worker.ts";
import { prepareDummyHash } from "./auth/passwords.ts";
import { startHousekeeping } from "./housekeeping.ts";

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/** `url`: where the server listens (its row in the registry of processes says so). */
export async function startBackgroundJobs(
  runtime: Runtime,
  options: { url?: string } = {},
): Promise<BackgroundJobs> {
  const { deps } = runtime;
  const stops: Array<() => Promise<void>> = [];
  try {
    await deps.cluster.join({ url: options.url });
    stops.push(() => deps.cluster.leave());
  } catch (error) {
    // Alone, the process still serves; it just does not cache actors (app/auth/actor_cache.ts).
    deps.logger.warn("could not join the other server processes", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const housekeeping = startHousekeeping(deps);
  stops.push(() => Promise.resolve(housekeeping.stop()));
  const outbox = startOutboxWorker(deps);
  if (outbox) stops.push(() => outbox.stop());
  await prepareDummyHash(deps.config.bcryptCost);
  return {
    async stop() {
      for (const stop of stops.reverse()) {
        await stop().catch((error) =>
          deps.logger.warn("background job did not stop cleanly", {
            error: error instanceof Error ? error.message : String(error),
          })
        );
      }
    },
  };
}
