/**
 * The tax exemption status machine: pending → approved, pending | approved → revoked.
 * Revoked is final; anything else is an invalid transition. An edit of the certificate of an
 * approved exemption sends it back to pending (`statusAfterEdit`): an approval vouches for the
 * certificate it saw, so a changed number, state or expiry needs approving again.
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

/**
 * What identifies the certificate and its term: what an approval vouches for. (`reason` is the
 * clerk's note beside it.)
 */
export const CERTIFICATE_FIELDS = ["certificateNumber", "issuingState", "expiresDate"] as const;
export type CertificateField = typeof CERTIFICATE_FIELDS[number];

/** The certificate fields `changes` sets to a value other than the current one. */
export function changedCertificateFields(
  current: Readonly<Record<CertificateField, string | null>>,
  changes: Readonly<Partial<Record<CertificateField, string | null | undefined>>>,
): CertificateField[] {
  return CERTIFICATE_FIELDS.filter((field) =>
    changes[field] !== undefined && changes[field] !== current[field]
  );
}

/**
 * The status after an edit changing `changed` certificate fields: an approved exemption goes
 * back to pending (approved again with accounts.approve), any other keeps its status.
 */
export function statusAfterEdit(
  status: TaxExemptionStatus,
  changed: readonly CertificateField[],
): TaxExemptionStatus {
  return status === "approved" && changed.length > 0 ? "pending" : status;
}

/** Whether an exemption waives tax on `onDate` (YYYY-MM-DD): approved and not yet expired. */
export function isExemptionActive(
  exemption: { status: TaxExemptionStatus; expiresDate: string | null },
  onDate: string,
): boolean {
  return exemption.status === "approved" &&
    (exemption.expiresDate === null || exemption.expiresDate >= onDate);
}
