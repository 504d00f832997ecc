/** Use cases of consignment terms (one record per product; the consignor is an account). */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import {
  type ConsignmentRecord,
  deleteConsignment,
  findConsignment,
  upsertConsignment,
} from "./consignment_repo.ts";
import { lockProduct } from "./products_repo.ts";
import { requireProduct } from "./products.ts";

function noTerms(productId: string): NotFoundError {
  return new NotFoundError("not_found", `Product "${productId}" has no consignment terms`);
}

/** The product's terms; 404 for an unknown product or one without terms. */
export async function requireConsignment(db: Db, productId: string): Promise<ConsignmentRecord> {
  await requireProduct(db, productId);
  const terms = await findConsignment(db, productId);
  if (!terms) throw noTerms(productId);
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
    await requireProduct(trx, productId, lockProduct);
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
  await requireProduct(deps.db, productId);
  if (!(await deleteConsignment(deps.db, productId))) throw noTerms(productId);
}
