/**
 * The SQL of the last-admin rule (API §3): the one lock that serializes changes which could
 * take `users.admin` away from someone, and the count of active users holding it.
 *
 * Lock: `lockAdminHolders` takes the transaction-scoped advisory lock "shop.admin_holders";
 * every such change takes it first, before any row lock (see app/auth/privileges.ts).
 */
import { sql, type Transaction } from "kysely";
import { ADMIN_PERMISSION } from "../../domain/auth/privileges.ts";
import type { Database, Db } from "../db/database.ts";

/** Serializes changes that could leave the store without an admin (until the transaction ends). */
export async function lockAdminHolders(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('shop.admin_holders'))`.execute(trx);
}

/**
 * Active users holding `users.admin` through any of their roles. Nothing else implies
 * `users.admin` (API §3 inheritance), so a role grants it only by naming it.
 */
export async function countActiveAdmins(db: Db): Promise<number> {
  const row = await db.selectFrom("users as u")
    .innerJoin("user_roles as ur", "ur.user_id", "u.id")
    .innerJoin("role_permissions as rp", "rp.role_id", "ur.role_id")
    .where("u.is_active", "=", true)
    .where("rp.permission", "=", ADMIN_PERMISSION)
    .select(sql<number>`count(DISTINCT u.id)::int`.as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
