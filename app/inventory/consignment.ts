/** Use cases of consignment terms (one record per product; the consignor is an account). */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import {
  type ConsignmentRecord,
  deleteConsignment,
  findConsignment,
  findProduct,
  upsertConsignment,
} from "./inventory_repo.ts";

export async function getConsignment(deps: AppDeps, productId: string): Promise<ConsignmentRecord> {
  if (!(await findProduct(deps.db, productId))) {
    throw new NotFoundError(`Product "${productId}" does not exist`);
  }
  const terms = await findConsignment(deps.db, productId);
  if (!terms) throw new NotFoundError(`Product "${productId}" has no consignment terms`);
  return terms;
}

/** PUT: creates or replaces the terms (200 either way). */
export async function putConsignment(
  deps: AppDeps,
  productId: string,
  input: {
    consignorAccountId: string;
    commissionPercent: string;
    minimumPrice: string;
    agreementDate: string;
  },
): Promise<ConsignmentRecord> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await findProduct(trx, productId, "share"))) {
      throw new NotFoundError(`Product "${productId}" does not exist`);
    }
    // The consignor must be a live account; there is no FK, so that inventory's migration
    // does not depend on the accounts migration.
    if (!(await findAccount(trx, input.consignorAccountId))) {
      throw new InvalidReferenceError(
        "consignorAccountId",
        `Account "${input.consignorAccountId}" does not exist`,
      );
    }
    return upsertConsignment(trx, { productId, ...input, now: deps.clock.now() });
  });
}

export async function removeConsignment(deps: AppDeps, productId: string): Promise<void> {
  if (!(await findProduct(deps.db, productId))) {
    throw new NotFoundError(`Product "${productId}" does not exist`);
  }
  if (!(await deleteConsignment(deps.db, productId))) {
    throw new NotFoundError(`Product "${productId}" has no consignment terms`);
  }
}
