/**
 * A repair ticket's money (API §9 "Ticket money"), in integer cents:
 * - a line's amount = quantity × unitPrice; a line is `isInternal` when its product is a
 *   consumable (internal job costing);
 * - `customerTotal` = Σ amounts of the customer-facing (non-internal) lines, pre-tax;
 *   `internalCost` = Σ amounts of the internal lines;
 * - `amountPaid` = the pre-tax (net) line amounts of the ticket's completed repair_payment
 *   transactions, less what was refunded of them (read from the POS);
 * - `balanceDue` = customerTotal − amountPaid, never below 0.00;
 * - completing a payment whose pre-tax amount is above `balanceDue` → 409 `overpayment`;
 * - `estimateExceeded`: customerTotal exceeds the approved (else the current) estimate by more
 *   than `repairEstimateTolerancePercent`; false without an estimate;
 * - a repair_payment started without lines gets the ticket's customer-facing lines (labor
 *   taxed as service, parts as goods) while nothing is paid, else one "Balance due" line.
 */
import { ConflictError } from "../errors.ts";
import { type BasisPoints, type Cents, exceedsShare, formatMoney, sumCents } from "../money.ts";

export type RepairLineKind = "labor" | "part";

export interface TicketLine {
  kind: RepairLineKind;
  description: string;
  quantity: number;
  unitPriceCents: Cents;
  isInternal: boolean;
}

export interface TicketTotals {
  customerTotalCents: Cents;
  internalCostCents: Cents;
}

export function lineAmountCents(line: Pick<TicketLine, "quantity" | "unitPriceCents">): Cents {
  const amount = line.quantity * line.unitPriceCents;
  if (!Number.isSafeInteger(amount)) throw new RangeError("Line amount is too large");
  return amount;
}

/** `customerTotal` and `internalCost` of a ticket's lines. */
export function ticketTotals(lines: readonly TicketLine[]): TicketTotals {
  return {
    customerTotalCents: sumCents(lines.filter((l) => !l.isInternal).map(lineAmountCents)),
    internalCostCents: sumCents(lines.filter((l) => l.isInternal).map(lineAmountCents)),
  };
}

/** `balanceDue` = customerTotal − amountPaid, never below zero. */
export function balanceDueCents(customerTotalCents: Cents, amountPaidCents: Cents): Cents {
  return Math.max(0, customerTotalCents - amountPaidCents);
}

/** A payment of `amountCents` (pre-tax) may not exceed the ticket's balance due. */
export function assertNotOverpaid(
  ticketNumber: string,
  amountCents: Cents,
  balanceCents: Cents,
): void {
  if (amountCents > balanceCents) {
    throw new ConflictError(
      "overpayment",
      `Repair ticket ${ticketNumber} has ${formatMoney(balanceCents)} due; a payment of ` +
        `${formatMoney(amountCents)} (pre-tax) would pay it twice over`,
    );
  }
}

export interface EstimateCheck {
  customerTotalCents: Cents;
  estimateCents: Cents | null;
  /** The amount of the recorded estimate approval, if any. */
  approvedCents: Cents | null;
  toleranceBp: BasisPoints;
}

/**
 * True when the customer total runs past the approved estimate (else the current one) by
 * more than the tolerance; false when the ticket has no estimate.
 */
export function estimateExceeded(check: EstimateCheck): boolean {
  if (check.estimateCents === null) return false;
  const basis = check.approvedCents ?? check.estimateCents;
  return exceedsShare(check.customerTotalCents - basis, basis, check.toleranceBp);
}

/** A line of a repair_payment transaction, as the POS takes new lines. */
export interface PaymentLine {
  kind: RepairLineKind;
  description: string;
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
}

/**
 * The lines of a repair_payment started without lines: while nothing is paid, the ticket's
 * customer-facing lines (labor → service, parts → goods); once something is, one labor line
 * "Balance due, repair R-…" of the balance due (none when nothing is due).
 */
export function repairPaymentLines(
  ticketNumber: string,
  lines: readonly TicketLine[],
  amountPaidCents: Cents,
): PaymentLine[] {
  if (amountPaidCents === 0) {
    return lines.filter((l) => !l.isInternal).map((l) => ({
      kind: l.kind,
      description: l.description,
      quantity: l.quantity,
      unitPrice: formatMoney(l.unitPriceCents),
      taxCategory: l.kind === "labor" ? "service" : "goods",
    }));
  }
  const due = balanceDueCents(ticketTotals(lines).customerTotalCents, amountPaidCents);
  if (due === 0) return [];
  return [{
    kind: "labor",
    description: `Balance due, repair ${ticketNumber}`,
    quantity: 1,
    unitPrice: formatMoney(due),
    taxCategory: "service",
  }];
}

/** `R-000123`: the readable ticket number of sequence value `n` (more digits past 999,999). */
export function formatTicketNumber(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`Bad ticket sequence value ${n}`);
  return `R-${String(n).padStart(6, "0")}`;
}
