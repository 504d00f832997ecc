/**
 * Idempotent seed of the six system roles. A role's permissions are written only when the
 * role is first created: admins may edit them afterwards and a re-seed keeps their edits.
 */
import { SYSTEM_ROLES } from "../../domain/auth/permissions.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { systemIds } from "../ids.ts";
import { insertSystemRoleIfMissing } from "./roles_repo.ts";

export async function seedSystemRoles(db: Db): Promise<void> {
  await withTransaction(db, async (trx) => {
    for (const role of SYSTEM_ROLES) {
      await insertSystemRoleIfMissing(trx, systemIds.uuid(), role);
    }
  });
}
