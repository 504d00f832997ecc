/** Use cases of units (serialized and rental products), validated against the lookups. */
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertCarriesUnits } from "../../domain/inventory/products.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  findProduct,
  findUnit,
  insertUnit,
  lookupValueExists,
  softDeleteUnit,
  type UnitRecord,
  updateUnit,
} from "./inventory_repo.ts";

/** Unknown status/condition → 400 invalid_reference (the foreign keys back this up). */
export async function assertUnitLookups(
  trx: Db,
  values: { status?: string; condition?: string },
): Promise<void> {
  if (
    values.status !== undefined && !(await lookupValueExists(trx, "unit_statuses", values.status))
  ) {
    throw new InvalidReferenceError("status", `Unknown unit status "${values.status}"`);
  }
  if (
    values.condition !== undefined &&
    !(await lookupValueExists(trx, "item_conditions", values.condition))
  ) {
    throw new InvalidReferenceError("condition", `Unknown item condition "${values.condition}"`);
  }
}

export async function getUnit(deps: AppDeps, id: string): Promise<UnitRecord> {
  const unit = await findUnit(deps.db, id);
  if (!unit) throw new NotFoundError(`Unit "${id}" does not exist`);
  return unit;
}

/** Only serialized and rental products have units (else 409 invalid_product_type). */
export async function createUnit(
  deps: AppDeps,
  productId: string,
  input: { serialNumber?: string | null; status: string; condition: string; notes?: string | null },
): Promise<UnitRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const product = await findProduct(trx, productId, "share");
    if (!product) throw new NotFoundError(`Product "${productId}" does not exist`);
    assertCarriesUnits(productId, product.type);
    await assertUnitLookups(trx, input);
    return insertUnit(trx, {
      id: deps.ids.uuid(),
      productId,
      serialNumber: input.serialNumber ?? null,
      status: input.status,
      condition: input.condition,
      notes: input.notes ?? null,
      now: deps.clock.now(),
    });
  });
}

export async function changeUnit(
  deps: AppDeps,
  id: string,
  input: {
    serialNumber?: string | null;
    status?: string;
    condition?: string;
    notes?: string | null;
  },
): Promise<UnitRecord> {
  return await withTransaction(deps.db, async (trx) => {
    await assertUnitLookups(trx, input);
    const unit = await updateUnit(trx, id, input, deps.clock.now());
    if (!unit) throw new NotFoundError(`Unit "${id}" does not exist`);
    return unit;
  });
}

export async function removeUnit(deps: AppDeps, id: string): Promise<void> {
  if (!(await softDeleteUnit(deps.db, id, deps.clock.now()))) {
    throw new NotFoundError(`Unit "${id}" does not exist`);
  }
}
