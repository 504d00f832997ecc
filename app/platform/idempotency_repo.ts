/** Stored responses of `Idempotency-Key` requests (API §1.4). */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { errorCode } from "../db/db_errors.ts";

/** How long a stored response is replayed (API §1.4: 24 h). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  requestHash: string;
  statusCode: number | null;
  body: string | null;
  contentType: string | null;
}

/** Claims the key for a new request; false when a row (fresh or in flight) already holds it. */
export async function claimIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
  requestHash: string,
  now: Date,
  ttlHours: number,
): Promise<boolean> {
  // An expired row no longer holds its key.
  await db.deleteFrom("idempotency_keys")
    .where("scope", "=", scope).where("key", "=", key)
    .where("created_at", "<", sql<Date>`${now}::timestamptz - make_interval(hours => ${ttlHours})`)
    .execute();
  const inserted = await db.insertInto("idempotency_keys")
    .values({ scope, key, request_hash: requestHash, created_at: now })
    .onConflict((oc) => oc.columns(["scope", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Inside the request's own transaction (the key row commits with the request's work and
 * answer): claims the key, waiting up to `waitMs` for a transaction that holds it uncommitted
 * (a first request still running, or one whose COMMIT is still pending) to end. `claimed`;
 * `held` when a committed row holds it (read it); `busy` when the wait ran out (the
 * transaction is then aborted).
 */
export async function claimIdempotencyKeyWaiting(
  db: Db,
  scope: string,
  key: string,
  requestHash: string,
  now: Date,
  ttlHours: number,
  waitMs: number,
): Promise<"claimed" | "held" | "busy"> {
  await sql`set local lock_timeout = ${sql.lit(`${Math.trunc(waitMs)}ms`)}`.execute(db);
  let claimed: boolean;
  try {
    claimed = await claimIdempotencyKey(db, scope, key, requestHash, now, ttlHours);
  } catch (error) {
    if (errorCode(error) === "55P03") return "busy";
    throw error;
  }
  await sql`set local lock_timeout to default`.execute(db);
  return claimed ? "claimed" : "held";
}

export async function findIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
): Promise<StoredResponse | undefined> {
  const row = await db.selectFrom("idempotency_keys")
    .select(["request_hash", "status_code", "response_body", "response_content_type"])
    .where("scope", "=", scope).where("key", "=", key)
    .executeTakeFirst();
  return row && {
    requestHash: row.request_hash,
    statusCode: row.status_code,
    body: row.response_body,
    contentType: row.response_content_type,
  };
}

export async function saveIdempotentResponse(
  db: Db,
  scope: string,
  key: string,
  response: { status: number; body: string; contentType: string | null },
): Promise<void> {
  await db.updateTable("idempotency_keys")
    .set({
      status_code: response.status,
      response_body: response.body,
      response_content_type: response.contentType,
    })
    .where("scope", "=", scope).where("key", "=", key)
    .execute();
}

export async function releaseIdempotencyKey(db: Db, scope: string, key: string): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("scope", "=", scope).where("key", "=", key)
    .execute();
}

/** Housekeeping: forget responses older than the replay window. */
export async function deleteExpiredIdempotencyKeys(
  db: Db,
  now: Date,
  ttlHours: number,
): Promise<number> {
  const result = await db.deleteFrom("idempotency_keys")
    .where("created_at", "<", sql<Date>`${now}::timestamptz - make_interval(hours => ${ttlHours})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
