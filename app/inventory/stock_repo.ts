/**
 * The SQL of stock as other features use it inside their own transactions: the products and
 * units a sale refers to, the unit lock, and the one statement that adds deltas to products'
 * `qty_on_hand`. Lock strengths (the same wherever inventory locks these rows):
 * - products: FOR NO KEY UPDATE, in product id order ({@link stockDeltaCte});
 * - units: FOR UPDATE, in unit id order ({@link lockUnits}).
 * Locking in id order means two transactions touching the same rows never deadlock.
 */
import { type RawBuilder, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import type { ProductType, TaxCategory } from "./inventory_tables.ts";

/** A change of one product's `qty_on_hand` (negative to decrement). */
export interface StockDelta {
  productId: string;
  delta: number;
}

export interface ProductForSale {
  id: string;
  name: string;
  price: string;
  type: ProductType;
  isConsumable: boolean;
  isActive: boolean;
  taxCategory: TaxCategory;
}

/** Products that new sale lines refer to, in one query (soft-deleted ones are left out). */
export async function findProductsForSale(
  db: Db,
  ids: readonly string[],
): Promise<ProductForSale[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("products")
    .select(["id", "name", "price", "type", "is_consumable", "is_active", "tax_category"])
    .where("id", "in", ids).where("deleted_at", "is", null).execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    price: row.price,
    type: row.type,
    isConsumable: row.is_consumable,
    isActive: row.is_active,
    taxCategory: row.tax_category,
  }));
}

export interface UnitForSale {
  id: string;
  productId: string;
  status: string;
}

/** Units that new sale lines refer to, in one query (soft-deleted ones are left out). */
export async function findUnitsForSale(db: Db, ids: readonly string[]): Promise<UnitForSale[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("units").select(["id", "product_id", "status"])
    .where("id", "in", ids).where("deleted_at", "is", null).execute();
  return rows.map((row) => ({ id: row.id, productId: row.product_id, status: row.status }));
}

/**
 * Locks units FOR UPDATE, in id order (so concurrent sales never deadlock), until the caller
 * commits, and returns their status. FOR UPDATE is the one lock strength of a unit row.
 */
export async function lockUnits(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Array<{ id: string; status: string }>> {
  if (ids.length === 0) return [];
  return await trx.selectFrom("units").select(["id", "status"]).where("id", "in", ids)
    .orderBy("id").forUpdate().execute();
}

/**
 * The stock update of `deltas` as two common table expressions (`stock_locked`, then
 * `stock_update`, which returns each changed product's id and new `qty_on_hand`), for a
 * statement that does more in the same round trip (the POS completes a sale this way); no
 * delta → undefined. Products are locked FOR NO KEY UPDATE, the one lock strength of a
 * product row, in product id order first, so concurrent sales of the same products never
 * deadlock; `qty_on_hand = qty_on_hand + delta` never loses an update, and the count may go
 * below zero (a sale is never blocked by a wrong count).
 */
export function stockDeltaCte(
  deltas: readonly StockDelta[],
  now: Date,
): RawBuilder<unknown> | undefined {
  if (deltas.length === 0) return undefined;
  const values = sql.join(deltas.map((d) => sql`(${d.productId}::uuid, ${d.delta}::integer)`));
  return sql`
    stock_locked AS (
      SELECT id FROM products WHERE id IN (${sql.join(deltas.map((d) => d.productId))})
      ORDER BY id FOR NO KEY UPDATE
    ),
    stock_update AS (
      UPDATE products AS p SET qty_on_hand = p.qty_on_hand + v.delta, updated_at = ${now}
      FROM stock_locked JOIN (VALUES ${values}) AS v(id, delta) ON v.id = stock_locked.id
      WHERE p.id = stock_locked.id
      RETURNING p.id, p.qty_on_hand
    )`;
}

/**
 * Applies `deltas` in one statement ({@link stockDeltaCte}); the new `qty_on_hand` of each
 * product that exists, by id.
 */
export async function applyStockDeltas(
  trx: Transaction<Database>,
  deltas: readonly StockDelta[],
  now: Date,
): Promise<Map<string, number>> {
  const ctes = stockDeltaCte(deltas, now);
  if (!ctes) return new Map();
  const result = await sql<{ id: string; qty_on_hand: number }>`
    WITH ${ctes} SELECT id, qty_on_hand FROM stock_update`.execute(trx);
  return new Map(result.rows.map((row) => [row.id, Number(row.qty_on_hand)]));
}
