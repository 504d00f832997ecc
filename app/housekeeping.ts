/**
 * Periodic clean-up while the server runs: expired Idempotency-Key responses (hourly, and
 * once shortly after start). `stop()` clears the timers on shutdown.
 */
import type { AppDeps } from "./deps.ts";
import { forgetExpiredResponses } from "./platform/idempotency.ts";

const HOUR_MS = 60 * 60 * 1000;
const FIRST_RUN_DELAY_MS = 60 * 1000;

export interface Housekeeping {
  stop(): void;
}

export async function runHousekeeping(
  deps: Pick<AppDeps, "db" | "clock" | "logger">,
): Promise<void> {
  const deleted = await forgetExpiredResponses(deps);
  if (deleted > 0) deps.logger.info("expired idempotency keys deleted", { count: deleted });
}

export function startHousekeeping(deps: AppDeps): Housekeeping {
  const run = () => {
    runHousekeeping(deps).catch((error) =>
      deps.logger.warn("housekeeping failed", {
        error: error instanceof Error ? error.message : String(error),
      })
    );
  };
  const first = setTimeout(run, FIRST_RUN_DELAY_MS);
  const hourly = setInterval(run, HOUR_MS);
  return {
    stop() {
      clearTimeout(first);
      clearInterval(hourly);
    },
  };
}
