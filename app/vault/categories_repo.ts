/**
 * SQL of vault categories, and the visibility rule every vault read shares: the caller's
 * highest granted level per category (their own grants and their roles' grants, aggregated in
 * the same statement) capped by the ceiling of their permissions (API §12).
 *
 * Lock: none; a category's entries hold it through their foreign key (RESTRICT), so a category
 * cannot be deleted while an entry is being added to it.
 */
import { type Expression, type Selectable, sql, type SqlBool } from "kysely";
import { effectiveLevel, type VaultLevel } from "../../domain/vault/access.ts";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { VaultCategory } from "./vault_schemas.ts";
import type { VaultCategoryTable } from "./vault_tables.ts";
import type { VaultViewer } from "./viewer.ts";

const RANK = sql<number>`max(CASE p.level WHEN 'view' THEN 1 WHEN 'edit' THEN 2 ELSE 3 END)`;

/** Per category: the highest rank granted to the viewer, directly or through a role. */
export function grantedRanks(db: Db, userId: string | null) {
  return db.selectFrom("vault_category_permissions as p")
    .select(["p.category_id", RANK.as("rank")])
    .where((eb) =>
      userId === null ? sql<SqlBool>`false` : eb.or([
        eb("p.user_id", "=", userId),
        eb(
          "p.role_id",
          "in",
          eb.selectFrom("user_roles as ur").select("ur.role_id").where("ur.user_id", "=", userId),
        ),
      ])
    )
    .groupBy("p.category_id");
}

/** The condition that the viewer has a level on the category the granted `rank` belongs to. */
export function visibleTo(viewer: VaultViewer, rank: Expression<number | null>) {
  if (viewer.ceiling.all) return sql<SqlBool>`true`;
  if (viewer.ceiling.maxRank === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${rank} IS NOT NULL`;
}

export type CategoryWithLevel = Omit<VaultCategory, "level"> & { level: VaultLevel };

function toCategory(
  row: Selectable<VaultCategoryTable> & { rank: number | null },
  viewer: VaultViewer,
): CategoryWithLevel {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    level: effectiveLevel(row.rank, viewer.ceiling) ?? "view",
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function visibleCategories(db: Db, viewer: VaultViewer) {
  return db.selectFrom("vault_categories as c")
    .leftJoin(grantedRanks(db, viewer.userId).as("g"), "g.category_id", "c.id")
    .selectAll("c")
    .select("g.rank")
    .where(({ ref }) => visibleTo(viewer, ref("g.rank")));
}

export function listVisibleCategories(db: Db, viewer: VaultViewer, params: ListParams) {
  let query = visibleCategories(db, viewer);
  if (params.q) {
    query = query.where(containsText(sql`lower(c.name)`, params.q, LOWERED));
  }
  return paginate(query, params, {
    sortColumns: { name: "c.name", createdAt: "c.created_at" },
    tieBreaker: "c.id",
    map: (row) => toCategory(row, viewer),
  });
}

/** The category with the viewer's level, or undefined when it does not exist for them. */
export async function findVisibleCategory(
  db: Db,
  viewer: VaultViewer,
  id: string,
): Promise<CategoryWithLevel | undefined> {
  const row = await visibleCategories(db, viewer).where("c.id", "=", id).executeTakeFirst();
  return row && toCategory(row, viewer);
}

/** Whether a category exists (whoever may see it). */
export async function hasCategory(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom("vault_categories").select("id").where("id", "=", id)
    .executeTakeFirst();
  return row !== undefined;
}

export interface CategoryValues {
  name: string;
  description: string | null;
}

export async function insertCategory(
  db: Db,
  values: CategoryValues & { id: string; now: Date },
): Promise<void> {
  await db.insertInto("vault_categories").values({
    id: values.id,
    name: values.name,
    description: values.description,
    created_at: values.now,
    updated_at: values.now,
  }).execute();
}

/** Whether there was such a category. */
export async function updateCategory(
  db: Db,
  id: string,
  changes: Partial<CategoryValues>,
  now: Date,
): Promise<boolean> {
  const row = await db.updateTable("vault_categories").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    updated_at: now,
  }).returning("id").executeTakeFirst();
  return row !== undefined;
}

export function deleteCategory(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "vault_categories", id);
}
