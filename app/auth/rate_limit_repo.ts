/** The SQL of the fixed-window request counters behind the per-IP auth limit. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

/** Atomic upsert-increment of one window's counter; returns the hits including this one. */
export async function incrementRateLimitCounter(
  db: Db,
  bucket: string,
  windowStart: Date,
): Promise<number> {
  const row = await db.insertInto("rate_limit_counters")
    .values({ bucket, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.columns(["bucket", "window_start"]).doUpdateSet({
        hits: sql`rate_limit_counters.hits + 1`,
      })
    )
    .returning("hits")
    .executeTakeFirstOrThrow();
  return row.hits;
}

/** Forgets the counters of windows that started before `before`. */
export async function deleteRateLimitCountersBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom("rate_limit_counters").where("window_start", "<", before).execute();
}
