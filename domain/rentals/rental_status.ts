/**
 * The rental status machine (API §13): a rental starts `active`; an active rental can be
 * returned, cancelled or bought out (purchased); every other move is a ConflictError
 * `invalid_transition`. Active rentals are overdue once today is past their due date, and
 * past due when a charge is unpaid more than `rentalGraceDays` after its due date.
 */
import { addDays } from "../calendar.ts";
import { ConflictError } from "../errors.ts";

export type RentalStatus = "active" | "returned" | "cancelled" | "purchased";

export const RENTAL_STATUSES: readonly RentalStatus[] = [
  "active",
  "returned",
  "cancelled",
  "purchased",
];

export type RentalMove = "return" | "cancel" | "buyout";

const PAST: Record<RentalMove, string> = {
  return: "returned",
  cancel: "cancelled",
  buyout: "bought out",
};

/** Only an active rental moves (returned, cancelled, purchased are final). */
export function assertCanMove(
  rental: { rentalNumber: string; status: RentalStatus },
  move: RentalMove,
): void {
  if (rental.status !== "active") {
    throw new ConflictError(
      "invalid_transition",
      `Rental ${rental.rentalNumber} cannot be ${PAST[move]}: it is ${rental.status}`,
    );
  }
}

/** A buyout needs an active rent-to-own rental. */
export function assertCanBuyOut(
  rental: { rentalNumber: string; status: RentalStatus; rentToOwn: boolean },
): void {
  assertCanMove(rental, "buyout");
  if (!rental.rentToOwn) {
    throw new ConflictError(
      "invalid_transition",
      `Rental ${rental.rentalNumber} is not rent-to-own: it cannot be bought out`,
    );
  }
}

/** A rental is deleted only once it no longer holds its unit (not active). */
export function assertCanDelete(rental: { rentalNumber: string; status: RentalStatus }): void {
  if (rental.status === "active") {
    throw new ConflictError(
      "invalid_transition",
      `Rental ${rental.rentalNumber} is active: return or cancel it before deleting it`,
    );
  }
}

/** Active and past its due date (`today` is the store-local date). */
export function isOverdue(
  rental: { status: RentalStatus; dueDate: string | null },
  today: string,
): boolean {
  return rental.status === "active" && rental.dueDate !== null && rental.dueDate < today;
}

/** Charges due before this date and still unpaid are past due. */
export function pastDueCutoff(today: string, graceDays: number): string {
  return addDays(today, -graceDays);
}

/** Whether an unpaid charge due on `dueDate` is past due. */
export function isPastDue(dueDate: string, today: string, graceDays: number): boolean {
  return dueDate < pastDueCutoff(today, graceDays);
}

/** The human number of a rental: `L-000123` (at least six digits). */
export function formatRentalNumber(n: number): string {
  return `L-${String(n).padStart(6, "0")}`;
}
