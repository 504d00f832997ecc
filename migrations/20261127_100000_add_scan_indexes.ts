import { type Kysely, sql } from "kysely";

/**
 * The counter's scan (API §17): every kind of code is an index lookup on its normalised value.
 * SKUs (`products_sku_key`), serial numbers (`units_serial_lower_idx`), ticket, rental, account
 * and transaction numbers (their unique keys) already have theirs; a product's UPC gets one on
 * its canonical barcode form, the expression of `canonicalBarcode()` in
 * domain/counter/scan_code.ts: a 12-digit UPC-A is the EAN-13 with a leading 0, so either form
 * finds the product.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX products_upc_code_idx ON products (
      (CASE WHEN btrim(upc) ~ '^[0-9]{12}$' THEN '0' || btrim(upc) ELSE lower(btrim(upc)) END)
    ) WHERE deleted_at IS NULL AND upc IS NOT NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS products_upc_code_idx`.execute(db);
}
