/** The SQL behind resolving an actor: a user's state and the union of their roles' permissions. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";

export interface ActorRecord {
  id: string;
  email: string;
  isActive: boolean;
  tokenVersion: number;
  posTokenVersion: number;
  permissions: string[];
}

/** One query: the user and the union of their roles' permissions. */
export async function findActorRecord(
  db: Db,
  where: { id: string } | { email: string },
): Promise<ActorRecord | undefined> {
  const row = await db.selectFrom("users as u")
    .select([
      "u.id",
      "u.email",
      "u.is_active",
      "u.token_version",
      "u.pos_token_version",
      sql<string[] | null>`(
        SELECT array_agg(DISTINCT rp.permission)
        FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
        WHERE ur.user_id = u.id
      )`.as("permissions"),
    ])
    .$if("id" in where, (q) => q.where("u.id", "=", (where as { id: string }).id))
    .$if(
      "email" in where,
      (q) => q.where(sql`lower(u.email)`, "=", (where as { email: string }).email.toLowerCase()),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    email: row.email,
    isActive: row.is_active,
    tokenVersion: row.token_version,
    posTokenVersion: row.pos_token_version,
    permissions: row.permissions ?? [],
  };
}
