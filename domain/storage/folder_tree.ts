/**
 * Rules of the folder tree's shape: a folder never moves into itself or one of its descendants
 * (a cycle would cut the subtree off the root), judged from the target's chain (the target and
 * its ancestors) read under the tree lock; and folder names that read well in a path.
 */
import { BadInputError } from "../errors.ts";

/** Refuses to move `folderId` under a folder whose chain (itself and its ancestors) holds it. */
export function assertNoCycle(folderId: string, targetChainIds: readonly string[]): void {
  const id = folderId.toLowerCase();
  if (targetChainIds.some((ancestor) => ancestor.toLowerCase() === id)) {
    throw new BadInputError(
      "validation_failed",
      "A folder cannot move into itself or one of its subfolders",
      [{ path: "parentId", message: "A folder cannot move into itself or one of its subfolders" }],
    );
  }
}

/** Control characters (C0, DEL, C1) and the bidirectional overrides that disguise names. */
// deno-lint-ignore no-control-regex -- control characters are what it finds
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why `name` (already trimmed) cannot name a folder or a stored file, or undefined when it can:
 * no control characters, no `/` or `\`, not `.` or `..`.
 */
export function nameProblem(name: string): string | undefined {
  if (UNSAFE_CHARACTERS.test(name)) return "Must not contain control characters";
  if (/[\\/]/.test(name)) return "Must not contain / or \\";
  if (name === "." || name === "..") return 'Must not be "." or ".."';
  return undefined;
}

/**
 * A client's file name made usable as a stored file's name: the escapes browsers apply to a
 * multipart file name undone (`%22` → `"`; `%0A`, `%0D` → `_`), the last path segment, control
 * characters replaced, trimmed, at most `max` characters (an extension kept when it fits).
 */
export function fileNameFromUpload(raw: string, max = 255): string {
  const unescaped = raw.replace(/%22/gi, '"').replace(/%0[ad]/gi, "_");
  const base = unescaped.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(new RegExp(UNSAFE_CHARACTERS.source, "g"), "_").trim();
  if (cleaned === "." || cleaned === "..") return "";
  const chars = Array.from(cleaned);
  if (chars.length <= max) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 ? Array.from(cleaned.slice(dot)) : [];
  if (extension.length > 0 && extension.length <= 16) {
    return chars.slice(0, max - extension.length).join("") + extension.join("");
  }
  return chars.slice(0, max).join("");
}
