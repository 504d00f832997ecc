/** The SQL of role grants: which roles a user holds. */
import type { Db } from "../db/database.ts";
import { touchedAny } from "../db/rows.ts";
import type { RoleSummary } from "./auth_schemas.ts";

export function listUserRoles(db: Db, userId: string): Promise<RoleSummary[]> {
  return db.selectFrom("user_roles as ur").innerJoin("roles as r", "r.id", "ur.role_id")
    .select(["r.id", "r.slug", "r.name"])
    .where("ur.user_id", "=", userId)
    .orderBy("r.name").orderBy("r.id")
    .execute();
}

/** Adds the role; false when the user already has it. */
export async function insertUserRole(
  db: Db,
  userId: string,
  roleId: string,
  now: Date,
): Promise<boolean> {
  const result = await db.insertInto("user_roles")
    .values({ user_id: userId, role_id: roleId, created_at: now })
    .onConflict((oc) => oc.columns(["user_id", "role_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes the role away; false when the user did not have it. */
export async function deleteUserRole(db: Db, userId: string, roleId: string): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("user_roles")
      .where("user_id", "=", userId).where("role_id", "=", roleId).executeTakeFirst(),
  );
}
