/**
 * Use cases of folder permissions (API §11): a folder's own grants, granting a level to a role
 * or a user, revoking. All need admin level on the folder; changes are audited
 * (`storage.permission_granted` / `storage.permission_revoked`). One grant per folder and
 * grantee (a second one → 409 duplicate: revoke it and grant again to change the level).
 */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { Level } from "../../domain/storage/levels.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { findRoleSummary } from "../auth/roles_repo.ts";
import { hasUser } from "../auth/users_repo.ts";
import type { AppDeps } from "../deps.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import { requireFolder } from "./access.ts";
import { narrowFolderAccess } from "./folders_repo.ts";
import { deleteGrant, GRANT_UNIQUE_INDEXES, insertGrant, listFolderGrants } from "./grants_repo.ts";
import type { GrantJson } from "./storage_schemas.ts";

/** The folder's own grants (inherited ones live on its ancestors). */
export async function listGrants(deps: AppDeps, actor: Actor, folderId: string) {
  await requireFolder(deps.db, actor, folderId, "manageGrants");
  return { data: await listFolderGrants(deps.db, folderId) };
}

export async function grantAccess(
  deps: AppDeps,
  actor: Actor,
  folderId: string,
  input: { roleId?: string; userId?: string; level: Level },
): Promise<GrantJson> {
  return await withTransaction(deps.db, async (trx) => {
    await requireFolder(trx, actor, folderId, "manageGrants");
    const grantee = input.roleId !== undefined
      ? { field: "roleId", id: input.roleId }
      : { field: "userId", id: input.userId! };
    const exists = input.roleId !== undefined
      ? (await findRoleSummary(trx, input.roleId)) !== undefined
      : await hasUser(trx, input.userId!);
    const missing = () =>
      new InvalidReferenceError(
        grantee.field,
        `No ${grantee.field === "roleId" ? "role" : "user"} "${grantee.id}" exists`,
      );
    if (!exists) throw missing();
    const grant = await insertGrant(trx, {
      id: deps.ids.uuid(),
      folderId,
      roleId: input.roleId ?? null,
      userId: input.userId ?? null,
      level: input.level,
      createdBy: actor.userId,
      now: deps.clock.now(),
    }).catch((error) => {
      if (GRANT_UNIQUE_INDEXES.some((index) => isUniqueViolation(error, index))) {
        throw new ConflictError(
          "duplicate",
          `That ${grantee.field === "roleId" ? "role" : "user"} already has a grant on this ` +
            "folder (revoke it to grant another level)",
        );
      }
      // The folder (or the grantee) vanished since it was read.
      if (isForeignKeyViolation(error)) throw missing();
      throw error;
    });
    await audit(deps, trx, actor, {
      action: "storage.permission_granted",
      entityType: "storage_folder",
      entityId: folderId,
      details: {
        grantId: grant.id,
        roleId: grant.roleId,
        userId: grant.userId,
        level: grant.level,
      },
    });
    return grant;
  });
}

export async function revokeGrant(
  deps: AppDeps,
  actor: Actor,
  folderId: string,
  grantId: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await requireFolder(trx, actor, folderId, "manageGrants");
    const grant = await deleteGrant(trx, folderId, grantId);
    if (!grant) {
      throw new NotFoundError("not_found", `Permission "${grantId}" does not exist on this folder`);
    }
    // The signed URLs of the files below may rest on this grant: they are revoked.
    await narrowFolderAccess(trx, folderId);
    await audit(deps, trx, actor, {
      action: "storage.permission_revoked",
      entityType: "storage_folder",
      entityId: folderId,
      details: { grantId, roleId: grant.roleId, userId: grant.userId, level: grant.level },
    });
  });
}
