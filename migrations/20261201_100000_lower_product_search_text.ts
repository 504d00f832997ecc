import { type Kysely, sql } from "kysely";

/**
 * The products' search text is lowered, as the other search columns are, so a search matches
 * it with LIKE (app/db/contains_text.ts, `LOWERED`) instead of ILIKE lowering every row it
 * checks. PostgreSQL 15 cannot change a generated column's expression, so the column is made
 * again, and its trigram index with it.
 */
async function searchTextAs(
  // deno-lint-ignore no-explicit-any
  db: Kysely<any>,
  expression: ReturnType<typeof sql>,
): Promise<void> {
  await sql`ALTER TABLE products DROP COLUMN search_text`.execute(db);
  await sql`ALTER TABLE products ADD COLUMN search_text text
    GENERATED ALWAYS AS (${expression}) STORED`.execute(db);
  await sql`CREATE INDEX products_search_trgm_idx ON products
    USING gin (search_text gin_trgm_ops) WITH (fastupdate = off) WHERE deleted_at IS NULL`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await searchTextAs(db, sql`lower(name || chr(31) || sku || chr(31) || coalesce(upc, ''))`);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await searchTextAs(db, sql`name || chr(31) || sku || chr(31) || coalesce(upc, '')`);
}
