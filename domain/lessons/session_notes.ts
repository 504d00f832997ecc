/** When a lesson session's notes count as completed (API §10). */

/**
 * `notesCompletedAt` after saving `notes`: non-empty notes keep an earlier completion time
 * (or take `now`); empty notes are allowed and leave it unset.
 */
export function notesCompletedAtAfter(
  notes: string | null,
  completedAt: Date | null,
  now: Date,
): Date | null {
  const hasNotes = (notes ?? "").trim() !== "";
  return hasNotes ? (completedAt ?? now) : null;
}
