/** The SQL of password reset tokens (only their SHA-256 hash is stored). */
import type { Db } from "../db/database.ts";

export type ResetPurpose = "email" | "admin";

export async function insertResetToken(db: Db, values: {
  id: string;
  userId: string;
  tokenHash: string;
  purpose: ResetPurpose;
  expiresAt: Date;
  now: Date;
}): Promise<void> {
  await db.insertInto("password_reset_tokens").values({
    id: values.id,
    user_id: values.userId,
    token_hash: values.tokenHash,
    purpose: values.purpose,
    expires_at: values.expiresAt,
    created_at: values.now,
  }).execute();
}

/**
 * Marks the token used and returns its user, in one statement (so it works once even when
 * two requests race); undefined when it is unknown, used or expired.
 */
export async function consumeResetToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<string | undefined> {
  const row = await db.updateTable("password_reset_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id;
}

/** Whose password a token that still works (unused, unexpired) sets; it stays unused. */
export async function findResetTokenAccount(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ email: string; firstName: string; lastName: string } | undefined> {
  return await db.selectFrom("password_reset_tokens as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select(["u.email as email", "u.first_name as firstName", "u.last_name as lastName"])
    .where("t.token_hash", "=", tokenHash)
    .where("t.used_at", "is", null)
    .where("t.expires_at", ">", now)
    .executeTakeFirst();
}

/** Uses up every other outstanding token of the user (after a reset or a password change). */
export async function revokeResetTokens(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable("password_reset_tokens").set({ used_at: now })
    .where("user_id", "=", userId).where("used_at", "is", null).execute();
}

/** Reset tokens of one purpose issued to the user since `since` (forgot-password limit). */
export async function countResetTokensSince(
  db: Db,
  userId: string,
  purpose: ResetPurpose,
  since: Date,
): Promise<number> {
  const row = await db.selectFrom("password_reset_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId).where("purpose", "=", purpose)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
