import { type Kysely, sql } from "kysely";

/**
 * Lists at a shop's size after ten years (issue 23, `BENCH_SCALE=shop10y`): each default page
 * and common filter walks an index in its sort order and stops after the page, instead of
 * sorting every matching row. Each index below replaced a scan of its whole table:
 *  - products by name (the catalogue's default order): 200,000 rows sorted per page;
 *  - a product's units by creation (`GET /products/:id/units`): every unit scanned;
 *  - an enrollment's sessions (`GET /lesson-sessions?enrollmentId=`): a million scanned;
 *  - enrollments by creation (their default order), also of one status;
 *  - stock receipts by receipt date (their default order) and by invoice number (`q`);
 *  - products of a category by name (replaces products_category_idx, which it covers);
 *  - members by last name and id (their default order: the name alone left 7,500 ties);
 *  - members by full name (the enrollments' `q`), session and drawer notes (their lists' `q`).
 */
const INDEXES: ReadonlyArray<[name: string, definition: string]> = [
  ["products_name_idx", "products (name, id) WHERE deleted_at IS NULL"],
  ["units_product_created_idx", "units (product_id, created_at, id) WHERE deleted_at IS NULL"],
  ["lesson_sessions_enrollment_idx", "lesson_sessions (enrollment_id, date, start_minute)"],
  ["enrollments_created_idx", "enrollments (created_at, id)"],
  ["enrollments_status_created_idx", "enrollments (status, created_at, id)"],
  ["stock_receipts_received_idx", "stock_receipts (received_at, id)"],
  [
    "stock_receipts_invoice_trgm_idx",
    "stock_receipts USING gin (invoice_number gin_trgm_ops) WHERE invoice_number IS NOT NULL",
  ],
  [
    "products_category_name_idx",
    "products (category_id, name, id) WHERE deleted_at IS NULL",
  ],
  ["members_last_name_id_idx", "members (last_name, id)"],
  [
    "members_full_name_trgm_idx",
    "members USING gin (lower(first_name || ' ' || last_name) gin_trgm_ops)",
  ],
  [
    "drawer_sessions_notes_trgm_idx",
    "drawer_sessions USING gin (notes gin_trgm_ops) WHERE notes IS NOT NULL",
  ],
  [
    "lesson_sessions_notes_trgm_idx",
    "lesson_sessions USING gin (notes gin_trgm_ops) WHERE notes IS NOT NULL",
  ],
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, definition] of INDEXES) {
    await sql.raw(`CREATE INDEX ${name} ON ${definition}`).execute(db);
  }
  await sql`DROP INDEX products_category_idx`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX products_category_idx ON products (category_id) WHERE deleted_at IS NULL`
    .execute(db);
  for (const [name] of INDEXES) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}
