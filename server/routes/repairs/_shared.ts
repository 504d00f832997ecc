/** Pieces the repairs routers share (folder-private). */

export const noContent = { 204: { description: "Deleted" } };
