/**
 * Use cases of stored payment methods. We never store a card number: any string in the
 * body that holds one is refused. One default per account: the partial unique index
 * `payment_methods_one_default` enforces it, and making one default unsets the previous
 * default in the same transaction (the account row is locked, so two such changes queue).
 */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import { assertNoCardNumber } from "../../domain/accounts/card_numbers.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { ListParams } from "../schemas.ts";
import { lockAccount } from "./accounts_repo.ts";
import {
  clearDefaultPaymentMethod,
  deletePaymentMethodRow,
  findPaymentMethod,
  insertPaymentMethod,
  listPaymentMethods as listPaymentMethodRows,
  type PaymentMethodChanges,
  type PaymentMethodRecord,
  updatePaymentMethodRow,
} from "./payment_methods_repo.ts";
import { accountNotFound, requireAccount } from "./accounts.ts";

function paymentMethodNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Payment method "${id}" does not exist`);
}

/** The payment method (of a live account) or 404. */
export async function requirePaymentMethod(db: Db, id: string): Promise<PaymentMethodRecord> {
  const method = await findPaymentMethod(db, id);
  if (!method) throw paymentMethodNotFound(id);
  return method;
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
      if (!(await lockAccount(trx, accountId))) throw accountNotFound(accountId);
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
  const current = await requirePaymentMethod(deps.db, id);
  await uniqueDefault(() =>
    withTransaction(deps.db, async (trx) => {
      if (!(await lockAccount(trx, current.accountId))) throw paymentMethodNotFound(id);
      const now = deps.clock.now();
      if (changes.isDefault) await clearDefaultPaymentMethod(trx, current.accountId, now);
      await updatePaymentMethodRow(trx, id, changes, now);
    })
  );
  return (await findPaymentMethod(deps.db, id))!;
}

export async function deletePaymentMethod(deps: AppDeps, id: string): Promise<void> {
  await requirePaymentMethod(deps.db, id);
  await deletePaymentMethodRow(deps.db, id);
}
