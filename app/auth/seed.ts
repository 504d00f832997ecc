/**
 * Idempotent seed of the six system roles. A role's permissions are written only when the
 * role is first created: admins may edit them afterwards and a re-seed keeps their edits.
 */
import { SYSTEM_ROLES } from "../../domain/auth/permissions.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { systemIds } from "../ids.ts";

export async function seedSystemRoles(db: Db): Promise<void> {
  await withTransaction(db, async (trx) => {
    for (const role of SYSTEM_ROLES) {
      const inserted = await trx.insertInto("roles")
        .values({
          id: systemIds.uuid(),
          slug: role.slug,
          name: role.name,
          description: role.description,
          is_system: true,
        })
        .onConflict((oc) => oc.column("slug").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted && role.permissions.length > 0) {
        await trx.insertInto("role_permissions")
          .values(role.permissions.map((permission) => ({ role_id: inserted.id, permission })))
          .execute();
      }
    }
  });
}
