/** Pieces the storage hub routers share (folder-private). */

export const TAG = "Storage hub";

export const noContent = { 204: { description: "Deleted" } };

/** The access rule every storage route follows, for the route descriptions. */
export const LEVEL_RULE = "Access: the caller's effective level on the folder (API §11) — " +
  "the highest grant to the user or one of their roles on the folder or an ancestor (a public " +
  "folder or ancestor counts as a view grant), capped by the caller's permission: storage.view " +
  "→ view, storage.edit → admin, storage.admin → admin on every folder without grants. No " +
  "level → 404 (as if the folder did not exist); a level too low for the action → 403.";
