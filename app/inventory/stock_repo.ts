/**
 * The SQL of stock as other features use it inside their own transactions: the products and
 * units a sale refers to, the unit lock, and the one statement that adds deltas to products'
 * `qty_on_hand`. Lock strengths (the same wherever inventory locks these rows):
 * - products: FOR NO KEY UPDATE (what an UPDATE of `qty_on_hand` takes), one product after
 *   another in product id order ({@link stockDeltaCte});
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

/**
 * The type of each product of `ids` that exists, soft-deleted ones included (stock a line
 * took from a product deleted since still goes back to it).
 */
export async function findProductTypes(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, ProductType>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("products").select(["id", "type"]).where("id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row.type]));
}

export interface UnitForSale {
  id: string;
  productId: string;
  status: string;
  serialNumber: string | null;
}

/** Units that new sale lines refer to, in one query (soft-deleted ones are left out). */
export async function findUnitsForSale(db: Db, ids: readonly string[]): Promise<UnitForSale[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("units").select(["id", "product_id", "status", "serial_number"])
    .where("id", "in", ids).where("deleted_at", "is", null).execute();
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    status: row.status,
    serialNumber: row.serial_number,
  }));
}

/**
 * Locks units FOR UPDATE, in id order (so concurrent sales never deadlock), until the caller
 * commits, and returns their status (and serial number, which a refusal names). FOR UPDATE
 * is the one lock strength of a unit row.
 */
export async function lockUnits(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Array<{ id: string; status: string; serialNumber: string | null }>> {
  if (ids.length === 0) return [];
  return await trx.selectFrom("units").select(["id", "status", "serial_number as serialNumber"])
    .where("id", "in", ids).orderBy("id").forUpdate().execute();
}

/**
 * The stock update of `deltas` as common table expressions, for a statement that does more in
 * the same round trip (the POS completes a sale this way): one single-row UPDATE per product
 * (`stock_0`, `stock_1`, ...), in product id order, each waiting for the one before (its
 * one-time filter reads the previous one's rows), then `stock_update`, which returns each
 * changed product's id and new `qty_on_hand`; no delta → undefined. `qty_on_hand =
 * qty_on_hand + delta` never loses an update, and the count may go below zero (a sale is
 * never blocked by a wrong count).
 *
 * The UPDATE takes each product's row lock itself, in id order, so concurrent sales, voids
 * and receipts of the same products never deadlock. It must not be preceded by a
 * `SELECT ... FOR NO KEY UPDATE` of the same rows in the same statement (as it once was): the
 * statement's snapshot predates a lock it had to wait for, so the UPDATE then walks the row's
 * versions a second time, and on that walk it waits for the heavyweight tuple lock that a
 * third transaction queued behind us holds (a receipt's `lockProduct`, another sale) while
 * that one waits for us: a deadlock, about 1 in 500 sales under parallel sales and receipts
 * of one product (tests/inventory/stock_lock_order_test.ts). A lock taken in an earlier
 * statement (`lockProduct` in a receipt) is fine: the next statement's snapshot sees the row
 * version we hold.
 */
export function stockDeltaCte(
  deltas: readonly StockDelta[],
  now: Date,
): RawBuilder<unknown> | undefined {
  const byProduct = new Map<string, number>();
  for (const { productId, delta } of deltas) {
    byProduct.set(productId, (byProduct.get(productId) ?? 0) + delta);
  }
  if (byProduct.size === 0) return undefined;
  // PostgreSQL orders uuids as lower-case hex strings do.
  const key = (id: string) => id.toLowerCase();
  const ordered = [...byProduct.entries()]
    .sort(([a], [b]) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const step = (i: number) => sql.raw(`stock_${i}`);
  const updates = ordered.map(([productId, delta], i) =>
    sql`${step(i)} AS (
      UPDATE products SET qty_on_hand = qty_on_hand + ${delta}::integer, updated_at = ${now}
      WHERE id = ${productId}::uuid${
      i === 0 ? sql`` : sql` AND (SELECT count(*) FROM ${step(i - 1)}) >= 0`
    }
      RETURNING id, qty_on_hand
    )`
  );
  const results = ordered.map((_, i) => sql`SELECT id, qty_on_hand FROM ${step(i)}`);
  return sql`
    ${sql.join(updates, sql`,\n    `)},
    stock_update AS (${sql.join(results, sql` UNION ALL `)})`;
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
