/** Lesson session statuses and their allowed moves (API §10). */
import { ConflictError } from "../errors.ts";

export const SESSION_STATUSES = ["scheduled", "attended", "missed", "makeup", "cancelled"] as const;
export type SessionStatus = typeof SESSION_STATUSES[number];

const MOVES: Record<SessionStatus, readonly SessionStatus[]> = {
  scheduled: ["attended", "missed", "cancelled"],
  makeup: ["attended", "missed", "cancelled"],
  attended: [],
  missed: [],
  cancelled: [],
};

export function canMoveSession(from: SessionStatus, to: SessionStatus): boolean {
  return MOVES[from].includes(to);
}

/** Throws `invalid_transition` unless `from → to` is allowed. */
export function assertSessionTransition(from: SessionStatus, to: SessionStatus): void {
  if (!canMoveSession(from, to)) {
    throw new ConflictError(
      "invalid_transition",
      `Cannot move a lesson session from ${from} to ${to}`,
    );
  }
}

/** Only missed or cancelled sessions can be made up. */
export function assertCanMakeUp(status: SessionStatus): void {
  if (status !== "missed" && status !== "cancelled") {
    throw new ConflictError(
      "invalid_transition",
      `Only a missed or cancelled session can be made up (this one is ${status})`,
    );
  }
}
