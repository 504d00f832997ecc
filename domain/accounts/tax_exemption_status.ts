/**
 * The tax exemption status machine: pending → approved, pending | approved → revoked.
 * Revoked is final; anything else is an invalid transition.
 */
import { ConflictError } from "../errors.ts";

export const TAX_EXEMPTION_STATUSES = ["pending", "approved", "revoked"] as const;
export type TaxExemptionStatus = typeof TAX_EXEMPTION_STATUSES[number];

const MOVES: Readonly<Record<TaxExemptionStatus, readonly TaxExemptionStatus[]>> = {
  pending: ["approved", "revoked"],
  approved: ["revoked"],
  revoked: [],
};

export function canMoveTaxExemption(from: TaxExemptionStatus, to: TaxExemptionStatus): boolean {
  return MOVES[from].includes(to);
}

/** Throws 409 `invalid_transition` unless `from → to` is allowed. */
export function assertTaxExemptionMove(
  id: string,
  from: TaxExemptionStatus,
  to: TaxExemptionStatus,
): void {
  if (!canMoveTaxExemption(from, to)) {
    throw new ConflictError(
      "invalid_transition",
      `Tax exemption "${id}" cannot move from ${from} to ${to}`,
    );
  }
}

/** Throws 409 `invalid_transition` for an edit of a revoked exemption (revoked is final). */
export function assertTaxExemptionEditable(id: string, status: TaxExemptionStatus): void {
  if (status === "revoked") {
    throw new ConflictError("invalid_transition", `Tax exemption "${id}" is revoked (final)`);
  }
}

/** Whether an exemption waives tax on `onDate` (YYYY-MM-DD): approved and not yet expired. */
export function isExemptionActive(
  exemption: { status: TaxExemptionStatus; expiresDate: string | null },
  onDate: string,
): boolean {
  return exemption.status === "approved" &&
    (exemption.expiresDate === null || exemption.expiresDate >= onDate);
}
