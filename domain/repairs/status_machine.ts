/**
 * The repair ticket's state machine (API §9, SEED-SPEC "Repair ticket"), as ONE pure function:
 * `nextRepairStatus(current, action)` answers the status a ticket moves to, or throws 409
 * `invalid_transition`. Three actions move a ticket:
 *
 * - `move` (POST /repair-tickets/:id/status): exactly the table below, nothing else —
 *   new → in_transit | intake | cancelled
 *   in_transit → intake | cancelled
 *   intake → in_progress | pending_parts | cancelled
 *   in_progress → pending_parts | ready_for_pickup | cancelled
 *   pending_parts → in_progress | cancelled
 *   ready_for_pickup → picked_up | delivered | in_progress
 *   picked_up, delivered: terminal · cancelled: only via reopen · never to the same status;
 * - `reopen` (POST /repair-tickets/:id/reopen): a cancelled ticket goes back to the status it
 *   had before it was cancelled (any other ticket → invalid_transition);
 * - `paid` (a repair_payment transaction completes): picked_up from any non-terminal state;
 *   picked_up and delivered stay as they are; a cancelled ticket cannot be paid.
 */
import { ConflictError } from "../errors.ts";

export const REPAIR_STATUSES = [
  "new",
  "in_transit",
  "intake",
  "in_progress",
  "pending_parts",
  "ready_for_pickup",
  "picked_up",
  "delivered",
  "cancelled",
] as const;
export type RepairStatus = typeof REPAIR_STATUSES[number];

/** Statuses a ticket never leaves (except that nothing leaves them at all). */
export const TERMINAL_STATUSES: readonly RepairStatus[] = ["picked_up", "delivered"];

/** The statuses a ticket is "closed" in (the unit timeline's repair_closed). */
export const CLOSED_STATUSES: readonly RepairStatus[] = ["picked_up", "delivered", "cancelled"];

const MOVES: Readonly<Record<RepairStatus, readonly RepairStatus[]>> = {
  new: ["in_transit", "intake", "cancelled"],
  in_transit: ["intake", "cancelled"],
  intake: ["in_progress", "pending_parts", "cancelled"],
  in_progress: ["pending_parts", "ready_for_pickup", "cancelled"],
  pending_parts: ["in_progress", "cancelled"],
  ready_for_pickup: ["picked_up", "delivered", "in_progress"],
  picked_up: [],
  delivered: [],
  cancelled: [],
};

export type RepairAction =
  | { type: "move"; to: RepairStatus }
  /** `before`: the status the ticket had when it was cancelled (null if unknown). */
  | { type: "reopen"; before: RepairStatus | null }
  | { type: "paid" };

export function isRepairStatus(value: string): value is RepairStatus {
  return (REPAIR_STATUSES as readonly string[]).includes(value);
}

function refuse(from: RepairStatus, what: string): never {
  throw new ConflictError("invalid_transition", `Cannot ${what} a repair ticket that is ${from}`);
}

/** The status `action` moves a ticket in `current` to; 409 `invalid_transition` if none. */
export function nextRepairStatus(current: RepairStatus, action: RepairAction): RepairStatus {
  switch (action.type) {
    case "move":
      if (!MOVES[current].includes(action.to)) {
        if (current === "cancelled") refuse(current, `move (reopen it instead) to ${action.to}`);
        refuse(current, `move to ${action.to}`);
      }
      return action.to;
    case "reopen":
      if (current !== "cancelled") refuse(current, "reopen");
      // A ticket is cancelled only from a status with a move to cancelled (never from
      // cancelled itself); an unknown earlier status reopens at the start.
      return action.before !== null && action.before !== "cancelled" ? action.before : "new";
    case "paid":
      if (current === "cancelled") refuse(current, "take a payment for");
      return TERMINAL_STATUSES.includes(current) ? current : "picked_up";
  }
}

/** The statuses `from` may move to with `move` (for documentation and errors). */
export function movesFrom(from: RepairStatus): readonly RepairStatus[] {
  return MOVES[from];
}
