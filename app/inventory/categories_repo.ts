/** SQL of categories: a tree by `parent_id`, soft-deleted. */
import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { CategoryTable } from "./inventory_tables.ts";

export interface CategoryRecord {
  id: string;
  name: string;
  parentId: string | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

const categoryColumns = [
  "id",
  "name",
  "parent_id",
  "sort_order",
  "created_at",
  "updated_at",
] as const;

function toCategory(row: Omit<Selectable<CategoryTable>, "deleted_at">): CategoryRecord {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    sortOrder: row.sort_order,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listCategories(db: Db, params: ListParams & { parentId?: string }) {
  let query = db.selectFrom("categories").select(categoryColumns).where("deleted_at", "is", null);
  if (params.q) query = query.where(containsText("name", params.q));
  if (params.parentId) query = query.where("parent_id", "=", params.parentId);
  return paginate(query, params, {
    sortColumns: { name: "name", sortOrder: "sort_order", createdAt: "created_at" },
    tieBreaker: "id",
    map: toCategory,
  });
}

export async function listAllCategories(db: Db): Promise<CategoryRecord[]> {
  const rows = await db.selectFrom("categories").select(categoryColumns)
    .where("deleted_at", "is", null)
    .orderBy("sort_order").orderBy("name").orderBy("id").execute();
  return rows.map(toCategory);
}

function liveCategory(db: Db, id: string) {
  return db.selectFrom("categories").select(categoryColumns)
    .where("id", "=", id).where("deleted_at", "is", null);
}

/** The live category (not soft-deleted), without a lock. */
export async function findCategory(db: Db, id: string): Promise<CategoryRecord | undefined> {
  const row = await liveCategory(db, id).executeTakeFirst();
  return row && toCategory(row);
}

/**
 * The live category, locked FOR UPDATE until the transaction ends: the one lock of a category
 * row. Taken to change or delete the category and to point at it (a product's category, a
 * new or moved child's parent), so a delete that has counted no dependents and a new
 * dependent never both commit.
 */
export async function lockCategory(
  trx: Transaction<Database>,
  id: string,
): Promise<CategoryRecord | undefined> {
  const row = await liveCategory(trx, id).forUpdate().executeTakeFirst();
  return row && toCategory(row);
}

/** Serializes changes to the category tree (held until the transaction ends). */
export async function lockCategoryTree(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('inventory.category_tree'))`.execute(trx);
}

/** Ancestors of `id` (parent first, root last), by a recursive CTE; stops on a loop. */
export async function findCategoryAncestors(db: Db, id: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE chain(id, parent_id, depth) AS (
      SELECT c.id, c.parent_id, 0 FROM categories c WHERE c.id = ${id}
      UNION ALL
      SELECT p.id, p.parent_id, chain.depth + 1
      FROM categories p JOIN chain ON p.id = chain.parent_id
      WHERE chain.depth < 1000
    )
    SELECT id FROM chain WHERE depth > 0 ORDER BY depth`.execute(db);
  return result.rows.map((row) => row.id);
}

export async function insertCategory(
  db: Db,
  values: { id: string; name: string; parentId: string | null; sortOrder: number; now: Date },
): Promise<CategoryRecord> {
  const row = await db.insertInto("categories").values({
    id: values.id,
    name: values.name,
    parent_id: values.parentId,
    sort_order: values.sortOrder,
    created_at: values.now,
    updated_at: values.now,
  }).returning(categoryColumns).executeTakeFirstOrThrow();
  return toCategory(row);
}

export async function updateCategory(
  db: Db,
  id: string,
  changes: { name?: string; parentId?: string | null; sortOrder?: number },
  now: Date,
): Promise<CategoryRecord> {
  const row = await db.updateTable("categories").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
    ...(changes.sortOrder !== undefined ? { sort_order: changes.sortOrder } : {}),
    updated_at: now,
  }).returning(categoryColumns).executeTakeFirstOrThrow();
  return toCategory(row);
}

/** What still points at a category: live child categories and live products. */
export async function countCategoryDependents(
  db: Db,
  id: string,
): Promise<{ children: number; products: number }> {
  const row = await db.selectNoFrom([
    sql<number>`(SELECT count(*) FROM categories WHERE parent_id = ${id} AND deleted_at IS NULL)`
      .as("children"),
    sql<number>`(SELECT count(*) FROM products WHERE category_id = ${id} AND deleted_at IS NULL)`
      .as("products"),
  ]).executeTakeFirstOrThrow();
  return { children: Number(row.children), products: Number(row.products) };
}

export async function softDeleteCategory(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("categories").set({ deleted_at: now, updated_at: now })
    .where("id", "=", id).execute();
}
