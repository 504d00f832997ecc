import { type Kysely, sql } from "kysely";

/**
 * What each repair line item holds from stock (API §22 "Repair parts"): `stock_quantity` of
 * `stock_product_id` taken out of that product's `qty_on_hand`, written in the statement
 * that adds or changes the line, in the transaction that moves the stock. Stock moves go from
 * what a line holds to what it holds next, never from its product and quantity, so lines
 * written before repair parts took stock hold nothing: deleting one gives nothing back (it
 * never took anything), and it takes stock only when its quantity or product changes. Every
 * existing row is such a line, so both columns start empty (null, 0) and nothing is filled in.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE repair_line_items
      ADD COLUMN stock_product_id uuid REFERENCES products (id),
      ADD COLUMN stock_quantity integer NOT NULL DEFAULT 0,
      ADD CONSTRAINT repair_line_items_stock_check CHECK (
        (stock_product_id IS NULL AND stock_quantity = 0) OR
        (stock_product_id IS NOT NULL AND stock_quantity > 0))`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE repair_line_items
      DROP CONSTRAINT IF EXISTS repair_line_items_stock_check,
      DROP COLUMN IF EXISTS stock_quantity,
      DROP COLUMN IF EXISTS stock_product_id`.execute(db);
}
