/**
 * Use cases of tax exemptions. Status moves only through approve/revoke (the pure machine
 * in domain/accounts/tax_exemption_status.ts), each under a row lock.
 */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import {
  assertTaxExemptionMove,
  type TaxExemptionStatus,
} from "../../domain/accounts/tax_exemption_status.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ListParams } from "../schemas.ts";
import {
  deleteTaxExemptionRow,
  existsActiveTaxExemption,
  findTaxExemption,
  insertTaxExemption,
  listTaxExemptions as listTaxExemptionRows,
  type TaxExemptionRecord,
  updateTaxExemptionRow,
} from "./accounts_repo.ts";
import { requireAccount } from "./accounts.ts";

/**
 * For the point of sale: whether the account has an approved exemption that has not
 * expired on `onDate` (YYYY-MM-DD, store-local) — then it pays no tax.
 */
export function hasActiveTaxExemption(db: Db, accountId: string, onDate: string): Promise<boolean> {
  return existsActiveTaxExemption(db, accountId, onDate);
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

/** Edits the certificate's fields (never its status); a revoked exemption is final. */
export async function updateTaxExemption(
  deps: AppDeps,
  id: string,
  changes: {
    certificateNumber?: string;
    issuingState?: string | null;
    reason?: string | null;
    expiresDate?: string | null;
  },
): Promise<TaxExemptionRecord> {
  await withTransaction(deps.db, async (trx) => {
    const current = await findTaxExemption(trx, id, { lock: true });
    if (!current) throw new NotFoundError(`Tax exemption "${id}" does not exist`);
    if (current.status === "revoked") {
      throw new ConflictError("invalid_transition", `Tax exemption "${id}" is revoked (final)`);
    }
    await updateTaxExemptionRow(trx, id, changes, deps.clock.now());
  });
  return (await findTaxExemption(deps.db, id))!;
}

async function moveStatus(
  deps: AppDeps,
  id: string,
  to: TaxExemptionStatus,
  actorId: string,
  reason?: string,
): Promise<TaxExemptionRecord> {
  await withTransaction(deps.db, async (trx) => {
    const current = await findTaxExemption(trx, id, { lock: true });
    if (!current) throw new NotFoundError(`Tax exemption "${id}" does not exist`);
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
  });
  return (await findTaxExemption(deps.db, id))!;
}

export function approveTaxExemption(deps: AppDeps, id: string, actorId: string) {
  return moveStatus(deps, id, "approved", actorId);
}

export function revokeTaxExemption(deps: AppDeps, id: string, actorId: string, reason: string) {
  return moveStatus(deps, id, "revoked", actorId, reason);
}

export async function deleteTaxExemption(deps: AppDeps, id: string): Promise<void> {
  const current = await findTaxExemption(deps.db, id);
  if (!current) throw new NotFoundError(`Tax exemption "${id}" does not exist`);
  await deleteTaxExemptionRow(deps.db, id);
}
