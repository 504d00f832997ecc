/**
 * Use cases of tax exemptions. Status moves through approve/revoke (the pure machine in
 * domain/accounts/tax_exemption_status.ts), and back to pending when an edit changes the
 * certificate of an approved exemption (`statusAfterEdit`), each under the exemption's row
 * lock and audited (`tax_exemption.approved`, `.revoked`, `.returned_to_pending`) in its
 * transaction; whether an exemption waives tax on a day is decided there too
 * (`isExemptionActive`).
 */
import { NotFoundError } from "../../domain/errors.ts";
import {
  assertTaxExemptionEditable,
  assertTaxExemptionMove,
  changedCertificateFields,
  isExemptionActive,
  statusAfterEdit,
  type TaxExemptionStatus,
} from "../../domain/accounts/tax_exemption_status.ts";
import { audit } from "../audit/audit.ts";
import { actingUserId, type Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import {
  deleteTaxExemptionRow,
  findTaxExemption,
  insertTaxExemption,
  listTaxExemptions as listTaxExemptionRows,
  listTaxExemptionTerms,
  lockTaxExemption,
  type TaxExemptionRecord,
  updateTaxExemptionRow,
} from "./tax_exemptions_repo.ts";
import { requireAccount } from "./accounts.ts";

function taxExemptionNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Tax exemption "${id}" does not exist`);
}

/** The tax exemption (of a live account) or 404. */
export async function requireTaxExemption(db: Db, id: string): Promise<TaxExemptionRecord> {
  const exemption = await findTaxExemption(db, id);
  if (!exemption) throw taxExemptionNotFound(id);
  return exemption;
}

/**
 * For the point of sale: the account's exemption active on `onDate` (YYYY-MM-DD, store-local)
 * — approved and not expired; the most recently approved of several — then it pays no tax and
 * its receipts name the certificate. Undefined when none is.
 */
export async function findActiveTaxExemption(
  db: Db,
  accountId: string,
  onDate: string,
): Promise<{ certificateNumber: string } | undefined> {
  const exemptions = await listTaxExemptionTerms(db, accountId);
  const active = exemptions.find((exemption) => isExemptionActive(exemption, onDate));
  return active && { certificateNumber: active.certificateNumber };
}

export async function listTaxExemptions(
  deps: AppDeps,
  accountId: string,
  params: ListParams & { status?: string },
) {
  await requireAccount(deps.db, accountId);
  return listTaxExemptionRows(deps.db, accountId, params);
}

export async function createTaxExemption(
  deps: AppDeps,
  accountId: string,
  input: {
    certificateNumber: string;
    issuingState?: string | null;
    reason?: string | null;
    expiresDate?: string | null;
  },
): Promise<TaxExemptionRecord> {
  await requireAccount(deps.db, accountId);
  const id = deps.ids.uuid();
  await insertTaxExemption(deps.db, {
    id,
    accountId,
    certificateNumber: input.certificateNumber,
    issuingState: input.issuingState ?? null,
    reason: input.reason ?? null,
    expiresDate: input.expiresDate ?? null,
    now: deps.clock.now(),
  });
  return (await findTaxExemption(deps.db, id))!;
}

/**
 * Edits the exemption's fields; a revoked exemption is final. A changed certificate number,
 * issuing state or expiry puts an approved exemption back to pending (no longer waiving tax
 * until approved again), audited as `tax_exemption.returned_to_pending`.
 */
export async function updateTaxExemption(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: {
    certificateNumber?: string;
    issuingState?: string | null;
    reason?: string | null;
    expiresDate?: string | null;
  },
): Promise<TaxExemptionRecord> {
  await withTransaction(deps.db, async (trx) => {
    const current = await lockTaxExemption(trx, id);
    if (!current) throw taxExemptionNotFound(id);
    assertTaxExemptionEditable(id, current.status);
    const changed = changedCertificateFields(current, changes);
    const status = statusAfterEdit(current.status, changed);
    const withdrawn = status !== current.status;
    await updateTaxExemptionRow(
      trx,
      id,
      withdrawn ? { ...changes, status, approvedAt: null, approvedBy: null } : changes,
      deps.clock.now(),
    );
    if (withdrawn) {
      await audit(deps, trx, actor, {
        action: "tax_exemption.returned_to_pending",
        entityType: "tax_exemption",
        entityId: id,
        details: {
          accountId: current.accountId,
          from: current.status,
          to: status,
          fields: changed,
          approvedBy: current.approvedBy,
          ...Object.fromEntries(
            changed.map((field) => [field, { from: current[field], to: changes[field] ?? null }]),
          ),
        },
      });
    }
  });
  return (await findTaxExemption(deps.db, id))!;
}

async function moveStatus(
  deps: AppDeps,
  actor: Actor,
  id: string,
  to: TaxExemptionStatus,
  reason?: string,
): Promise<TaxExemptionRecord> {
  const actorId = actingUserId(actor);
  await withTransaction(deps.db, async (trx) => {
    const current = await lockTaxExemption(trx, id);
    if (!current) throw taxExemptionNotFound(id);
    assertTaxExemptionMove(id, current.status, to);
    const now = deps.clock.now();
    await updateTaxExemptionRow(
      trx,
      id,
      to === "approved"
        ? { status: to, approvedAt: now, approvedBy: actorId }
        : { status: to, revokedAt: now, revokedBy: actorId, revokeReason: reason },
      now,
    );
    await audit(deps, trx, actor, {
      action: to === "approved" ? "tax_exemption.approved" : "tax_exemption.revoked",
      entityType: "tax_exemption",
      entityId: id,
      details: {
        accountId: current.accountId,
        from: current.status,
        to,
        certificateNumber: current.certificateNumber,
        expiresDate: current.expiresDate,
        ...(reason === undefined ? {} : { reason }),
      },
    });
  });
  return (await findTaxExemption(deps.db, id))!;
}

/** pending → approved, by a signed-in user (the system actor is refused). */
export function approveTaxExemption(deps: AppDeps, actor: Actor, id: string) {
  return moveStatus(deps, actor, id, "approved");
}

/** pending | approved → revoked (final), by a signed-in user, with a reason. */
export function revokeTaxExemption(deps: AppDeps, actor: Actor, id: string, reason: string) {
  return moveStatus(deps, actor, id, "revoked", reason);
}

export async function deleteTaxExemption(deps: AppDeps, id: string): Promise<void> {
  await requireTaxExemption(deps.db, id);
  await deleteTaxExemptionRow(deps.db, id);
}
