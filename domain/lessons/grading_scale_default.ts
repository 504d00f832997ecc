/**
 * Exactly one grading scale is the default: the first scale becomes it, making another the
 * default unsets the previous, and the default cannot simply be unset.
 */
import { ConflictError } from "../errors.ts";

/** Whether a new scale is the default: asked for, or the first scale (no default yet). */
export function isDefaultOnCreate(requested: boolean | undefined, hasDefault: boolean): boolean {
  return requested === true || !hasDefault;
}

/** Throws `default_required` when a change would unset the default scale. */
export function assertKeepsDefault(requested: boolean | undefined, isDefault: boolean): void {
  if (requested === false && isDefault) {
    throw new ConflictError(
      "default_required",
      "One scale must stay the default: make another scale the default instead",
    );
  }
}
