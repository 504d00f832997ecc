/**
 * Guards every declared route runs on its query and JSON body before the zod schema does
 * (`parseOrThrow` in route.ts), so no route can forget them.
 *
 * NUL (U+0000): PostgreSQL cannot store it in text or jsonb, so a string holding one would end
 * as a 500 from the driver. API §1.1: every text field and query parameter refuses it with 400
 * naming the field — object keys included, wherever they sit.
 */
import { ValidationError } from "../domain/errors.ts";

export const NUL_MESSAGE = "Must not contain a NUL character (U+0000)";

/** A body full of NULs is named by its first fields only. */
const MAX_NAMED_FIELDS = 20;
const NUL_KEY = Symbol("a key holding a NUL");

interface Visit {
  node: unknown;
  key: string;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

/**
 * The paths (`name`, `sections.0.items.3.title`) of the strings in `value` holding a NUL, in
 * document order (the first `limit` of them). Iterative and without copied paths, so neither a deeply nested nor a very
 * wide body costs more than its own size.
 */
export function nulBytePaths(value: unknown, limit = Infinity): string[] {
  const found: string[] = [];
  const stack: Visit[] = [{ node: value, key: "", parent: undefined }];
  while (stack.length > 0 && found.length < limit) {
    const visit = stack.pop()!;
    const { node } = visit;
    if (node === NUL_KEY || (typeof node === "string" && node.includes("\0"))) {
      found.push(pathOf(visit));
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      // A key holding a NUL is itself the offending field (named with the NUL spelled out).
      stack.push(
        key.includes("\0")
          ? { node: NUL_KEY, key: key.replaceAll("\0", "\\0"), parent: visit }
          : { node: child, key, parent: visit },
      );
    }
  }
  return found;
}

/** Refuses (400 validation_failed) a query or body holding a NUL anywhere, naming each field. */
export function rejectNulBytes(value: unknown): void {
  const paths = nulBytePaths(value, MAX_NAMED_FIELDS);
  if (paths.length > 0) {
    throw new ValidationError(paths.map((path) => ({ path, message: NUL_MESSAGE })));
  }
}
