/** Pieces the accounts routers share (folder-private). */

export const deleted = { 204: { description: "Deleted" } };

export const SUB_LIST_NOTE =
  "Paginated like every list (API §1.3); the lists are per record and small, " +
  "but clients page them the same way as the others.";
