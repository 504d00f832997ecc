/**
 * The transaction status machine (API §8; SEED-SPEC "Transaction"):
 *
 *   pending ──complete──▶ complete ──void (drawer session still open)──▶ voided
 *      └─────────────void──────────────────────────────────────────────▶ voided
 *
 * - Items, discount and payments change only while `pending`.
 * - `complete` needs `pending` and a zero balance (ConflictError `balance_due` otherwise).
 * - `void`: a pending transaction, or a complete one whose drawer session is still open.
 *   Refund transactions are final and cannot be voided (a mistaken refund is corrected by a
 *   new sale). Voided is terminal.
 * - Refunds: only complete `sale`, `repair_payment` and `rental_payment` transactions can be
 *   refunded.
 * - The lines of a `rental_payment` (one per rental charge) and of a rental buyout are fixed
 *   when it starts: they cannot be added, changed or removed.
 *
 * Every refused move is a ConflictError `invalid_transition` (409), except the balance rule.
 */
import { ConflictError } from "../errors.ts";
import { type Cents, formatMoney } from "../money.ts";
import { formatReceiptNumber } from "./receipt_number.ts";

export type TransactionType = "sale" | "repair_payment" | "rental_payment" | "refund";
export type TransactionStatus = "pending" | "complete" | "voided";

export interface TransactionState {
  id?: string;
  /** Its sequence number: a refusal names the transaction by receipt number (`S-0001234`). */
  number?: number | null;
  type: TransactionType;
  status: TransactionStatus;
}

/** How a refusal names the transaction: its receipt number, else its id. */
function nameOf(tx: TransactionState): string {
  if (tx.number != null) return `transaction ${formatReceiptNumber(tx.number)}`;
  return tx.id ? `transaction "${tx.id}"` : "the transaction";
}

function refuse(tx: TransactionState, what: string): never {
  const name = nameOf(tx);
  throw new ConflictError("invalid_transition", `Cannot ${what} ${name}: it is ${tx.status}`);
}

/** Items, discount and payment changes: only while pending. */
export function assertEditable(tx: TransactionState): void {
  if (tx.status !== "pending") refuse(tx, "change");
}

/**
 * Completing: only a pending sale or repair payment (refund transactions are created
 * complete), and only with nothing left to pay (ConflictError `balance_due`).
 */
export function assertCanComplete(tx: TransactionState & { balanceDueCents: Cents }): void {
  if (tx.status !== "pending" || tx.type === "refund") refuse(tx, "complete");
  if (tx.balanceDueCents !== 0) {
    throw new ConflictError(
      "balance_due",
      `Cannot complete ${nameOf(tx)}: ` +
        `${formatMoney(tx.balanceDueCents)} is still due`,
    );
  }
}

/**
 * Voiding: a pending transaction, or a complete sale/repair payment whose drawer session is
 * still open (`drawerSessionOpen`; ignored for pending transactions, which have none).
 */
export function assertCanVoid(tx: TransactionState & { drawerSessionOpen: boolean }): void {
  if (tx.type === "refund") refuse(tx, "void");
  if (tx.status === "pending") return;
  if (tx.status === "complete") {
    if (tx.drawerSessionOpen) return;
    throw new ConflictError(
      "invalid_transition",
      `Cannot void ${nameOf(tx)}: its drawer session is closed (refund it instead)`,
    );
  }
  refuse(tx, "void");
}

/** Lines of a rental_payment or of a rental buyout sale are fixed (409 invalid_transition). */
export function assertLinesChangeable(
  tx: TransactionState & { rentalId?: string | null },
): void {
  if (tx.type === "rental_payment" || tx.rentalId) {
    throw new ConflictError(
      "invalid_transition",
      `The lines of ${nameOf(tx)} pay rental charges or a rental buyout: they cannot be ` +
        "changed (void it and start again)",
    );
  }
}

/** Refunding: only complete sale, repair_payment and rental_payment transactions. */
export function assertCanRefund(tx: TransactionState): void {
  if (tx.type === "refund") {
    throw new ConflictError("invalid_transition", "A refund cannot itself be refunded");
  }
  if (tx.status !== "complete") refuse(tx, "refund");
}
