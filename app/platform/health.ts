/** Whether the service can serve: the database answers within a time limit. */
import type { Db } from "../db/database.ts";
import { pingDatabase } from "./health_repo.ts";

const HEALTH_TIMEOUT_MS = 3000;

/** Whether the database answered `SELECT 1` within `timeoutMs` (never throws). */
export async function checkDatabase(db: Db, timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      pingDatabase(db).then(() => true, () => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
