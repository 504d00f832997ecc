/**
 * Repair batches (API §9): a school's or a band's instruments taken in together, with an
 * approval workflow draft → submitted → approved | rejected (approved and rejected are final).
 * Tickets join and leave a batch only while it is a draft; anything else → 409
 * `invalid_transition`.
 */
import { ConflictError } from "../errors.ts";

export const BATCH_STATUSES = ["draft", "submitted", "approved", "rejected"] as const;
export type BatchStatus = typeof BATCH_STATUSES[number];

export type BatchAction = "submit" | "approve" | "reject";

const MOVES: Readonly<Record<BatchAction, { from: BatchStatus; to: BatchStatus }>> = {
  submit: { from: "draft", to: "submitted" },
  approve: { from: "submitted", to: "approved" },
  reject: { from: "submitted", to: "rejected" },
};

/** The status `action` moves a batch in `current` to; 409 `invalid_transition` otherwise. */
export function nextBatchStatus(current: BatchStatus, action: BatchAction): BatchStatus {
  const move = MOVES[action];
  if (current !== move.from) {
    throw new ConflictError(
      "invalid_transition",
      `Cannot ${action} a repair batch that is ${current} (only a ${move.from} one)`,
    );
  }
  return move.to;
}

/** Tickets join or leave only a draft batch. */
export function assertBatchTakesTickets(batch: { name: string; status: BatchStatus }): void {
  if (batch.status !== "draft") {
    throw new ConflictError(
      "invalid_transition",
      `Repair batch "${batch.name}" is ${batch.status}: tickets join or leave only a draft batch`,
    );
  }
}
