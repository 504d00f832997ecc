/** Pieces the storage hub routers share (folder-private). */

export const TAG = "Storage hub";

export const noContent = { 204: { description: "Deleted" } };

/** The access rule every storage route follows, for the route descriptions. */
export const LEVEL_RULE = "Access: the caller's effective level on the folder (API §11) — " +
  "the highest grant to the user or one of their roles on the folder or an ancestor (a public " +
  "folder or ancestor counts as a view grant), capped by the caller's permission: storage.view " +
  "→ view, storage.edit → admin, storage.admin → admin on every folder without grants. No " +
  "level → 404 (as if the folder did not exist); a level too low for the action → 403.";

/** What happens to signed URLs when access narrows, for the route descriptions. */
export const LINK_REVOCATION = "Signed URLs follow the file's access: each carries the file's " +
  "access generation (`generation`, under the signature), and a change that narrows access to " +
  "the file revokes every URL signed before it — its folder or an ancestor made private, moved " +
  "or losing a grant (DELETE …/permissions/:permissionId), or the file moved to another folder " +
  "— so such a URL then answers 403 invalid_signature; a deleted file's URL answers 404. URLs " +
  "signed after the change follow the new rules; renames, uploads, new grants and making a " +
  "folder public revoke nothing, nor do changes of roles or users outside the hub (they end " +
  "with the URL's expiry, at most 7 days).";
