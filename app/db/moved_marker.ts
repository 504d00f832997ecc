/**
 * `DATA_DIR/MOVED`: left in an embedded data directory whose shop has moved elsewhere (`ops
 * restore --move`, README "Moving to PostgreSQL"). The old copy stays as it was, but no server
 * or `ops` command opens it again: each refuses with one line naming where the shop went and
 * how to point at it. The file is plain text a person can read; deleting it opens the old copy
 * again (only for going back to it on purpose).
 */

export interface MovedMarker {
  /** Where the shop's database went: a PostgreSQL URL without its password, or a DATA_DIR. */
  to: string;
  /** Its files directory there. */
  filesDir: string;
  /** When (ISO 8601). */
  at: string;
}

export function movedMarkerPath(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}/MOVED`;
}

/** Refused: the embedded database in `dataDir` was moved away from. */
export class DataDirMovedError extends Error {
  readonly marker: MovedMarker;
  constructor(dataDir: string, marker: MovedMarker) {
    const setting = /^postgres(ql)?:\/\//.test(marker.to)
      ? "DATABASE_URL to that database"
      : `DATA_DIR=${marker.to}`;
    super(
      `The embedded database in DATA_DIR "${dataDir}" is an old copy: the shop moved to ` +
        `${marker.to} on ${marker.at.slice(0, 10)} (see ${movedMarkerPath(dataDir)}). Fix: ` +
        `set ${setting}: \`ops restore --move\` wrote it into shop.env, which the server and ` +
        "ops read in the shop's directory (or the file SHOP_ENV_FILE names), or set it in the " +
        "environment.",
    );
    this.name = "DataDirMovedError";
    this.marker = marker;
  }
}

/** Refuses (DataDirMovedError) when `dataDir` holds a marker. */
export async function assertNotMoved(dataDir: string): Promise<void> {
  const marker = await readMovedMarker(dataDir);
  if (marker) throw new DataDirMovedError(dataDir, marker);
}

const FIELDS = { to: "moved to", filesDir: "files", at: "at" } as const;

/** The marker in `dataDir`, if there is one. */
export async function readMovedMarker(dataDir: string): Promise<MovedMarker | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(movedMarkerPath(dataDir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const field = (label: string) =>
    text.split("\n").find((line) => line.startsWith(`${label}: `))?.slice(label.length + 2)
      .trim() ?? "";
  // A marker a person wrote or damaged still refuses: where is then unknown.
  return {
    to: field(FIELDS.to) || "another database",
    filesDir: field(FIELDS.filesDir),
    at: field(FIELDS.at) || "an unknown date",
  };
}

export async function writeMovedMarker(dataDir: string, marker: MovedMarker): Promise<void> {
  await Deno.writeTextFile(
    movedMarkerPath(dataDir),
    [
      `${FIELDS.to}: ${marker.to}`,
      `${FIELDS.filesDir}: ${marker.filesDir}`,
      `${FIELDS.at}: ${marker.at}`,
      "",
      "The shop's data moved there (ops restore --move); what is in this directory is the copy",
      "from before the move. The server and ops refuse to open it while this file is here.",
      "Delete this file only to go back to that old copy on purpose.",
      "",
    ].join("\n"),
  );
}

export async function removeMovedMarker(dataDir: string): Promise<void> {
  await Deno.remove(movedMarkerPath(dataDir)).catch(() => {});
}
