/**
 * Who may see files of an entity type (API §6): every file needs its `files.*` permission;
 * scans of identity documents (entityType `member_identifier`) need `accounts.view` as well,
 * for every read (list, metadata, content, signed URL), upload and delete. Without it they
 * behave as if absent.
 */
import type { Permission } from "../auth/permissions.ts";

const EXTRA_PERMISSION: Readonly<Record<string, Permission>> = {
  member_identifier: "accounts.view",
};

/** The permission files of `entityType` need besides the route's `files.*` one, if any. */
export function extraFilePermission(entityType: string): Permission | undefined {
  return Object.hasOwn(EXTRA_PERMISSION, entityType) ? EXTRA_PERMISSION[entityType] : undefined;
}

/** Whether a holder of `permissions` may know files of `entityType` exist. */
export function mayAccessFilesOf(
  entityType: string,
  permissions: ReadonlySet<Permission>,
): boolean {
  const extra = extraFilePermission(entityType);
  return extra === undefined || permissions.has(extra);
}
