/** Pieces the lessons routers share (folder-private). */

export const noContent = { 204: { description: "Deleted" } };
