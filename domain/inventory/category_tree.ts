/**
 * Category hierarchy rules (pure). A category may not become its own ancestor: moving
 * category `id` under `newParentId` is refused when `id` is `newParentId` itself or one of
 * its ancestors.
 */
import { ValidationError } from "../errors.ts";

/**
 * True when placing `categoryId` under `newParentId` would close a loop. `ancestorsOfParent`
 * lists the new parent's ancestors (parent first, root last), as read from the database.
 */
export function wouldCreateCycle(
  categoryId: string,
  newParentId: string,
  ancestorsOfParent: readonly string[],
): boolean {
  return newParentId === categoryId || ancestorsOfParent.includes(categoryId);
}

/** Throws a 400 `validation_failed` on `parentId` when the move would create a cycle. */
export function assertNoCycle(
  categoryId: string,
  newParentId: string,
  ancestorsOfParent: readonly string[],
): void {
  if (wouldCreateCycle(categoryId, newParentId, ancestorsOfParent)) {
    const message = newParentId === categoryId
      ? `Category "${categoryId}" cannot be its own parent`
      : `Category "${newParentId}" is a descendant of "${categoryId}": the move would create a cycle`;
    throw new ValidationError([{ path: "parentId", message }], message);
  }
}
