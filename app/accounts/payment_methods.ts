/**
 * Use cases of stored payment methods. We never store a card number: any string in the
 * body that holds one is refused. One default per account: the partial unique index
 * `payment_methods_one_default` enforces it, and making one default unsets the previous
 * default in the same transaction (the account row is locked, so two such changes queue).
 */
import { ConflictError, NotFoundError, ValidationError } from "../../domain/errors.ts";
import { findCardNumber } from "../../domain/accounts/card_numbers.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { ListParams } from "../schemas.ts";
import {
  clearDefaultPaymentMethod,
  deletePaymentMethodRow,
  findAccount,
  findPaymentMethod,
  insertPaymentMethod,
  listPaymentMethods as listPaymentMethodRows,
  type PaymentMethodChanges,
  type PaymentMethodRecord,
  updatePaymentMethodRow,
} from "./accounts_repo.ts";
import { requireAccount } from "./accounts.ts";

/** Refuses a body holding a full card number (PAN) anywhere, without echoing it. */
export function assertNoCardNumber(body: unknown): void {
  const path = findCardNumber(body);
  if (path !== undefined) {
    throw new ValidationError([{
      path,
      message: "Looks like a full card number; store only brand, last4 and the processor's token",
    }]);
  }
}

function uniqueDefault<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error) => {
    if (isUniqueViolation(error, "payment_methods_one_default")) {
      throw new ConflictError("duplicate", "The account already has a default payment method");
    }
    throw error;
  });
}

export async function listPaymentMethods(deps: AppDeps, accountId: string, params: ListParams) {
  await requireAccount(deps.db, accountId);
  return listPaymentMethodRows(deps.db, accountId, params);
}

export async function createPaymentMethod(
  deps: AppDeps,
  accountId: string,
  input: PaymentMethodChanges & { type: string },
): Promise<PaymentMethodRecord> {
  assertNoCardNumber(input);
  const id = deps.ids.uuid();
  await uniqueDefault(() =>
    withTransaction(deps.db, async (trx) => {
      const account = await findAccount(trx, accountId, { lock: true });
      if (!account) throw new NotFoundError(`Account "${accountId}" does not exist`);
      const now = deps.clock.now();
      if (input.isDefault) await clearDefaultPaymentMethod(trx, accountId, now);
      await insertPaymentMethod(trx, { ...input, id, accountId, now });
    })
  );
  return (await findPaymentMethod(deps.db, id))!;
}

export async function updatePaymentMethod(
  deps: AppDeps,
  id: string,
  changes: PaymentMethodChanges,
): Promise<PaymentMethodRecord> {
  assertNoCardNumber(changes);
  const current = await findPaymentMethod(deps.db, id);
  if (!current) throw new NotFoundError(`Payment method "${id}" does not exist`);
  await uniqueDefault(() =>
    withTransaction(deps.db, async (trx) => {
      const account = await findAccount(trx, current.accountId, { lock: true });
      if (!account) throw new NotFoundError(`Payment method "${id}" does not exist`);
      const now = deps.clock.now();
      if (changes.isDefault) await clearDefaultPaymentMethod(trx, current.accountId, now);
      await updatePaymentMethodRow(trx, id, changes, now);
    })
  );
  return (await findPaymentMethod(deps.db, id))!;
}

export async function deletePaymentMethod(deps: AppDeps, id: string): Promise<void> {
  const current = await findPaymentMethod(deps.db, id);
  if (!current) throw new NotFoundError(`Payment method "${id}" does not exist`);
  await deletePaymentMethodRow(deps.db, id);
}
