/** SQL of service templates (soft-deleted; their default line items are a jsonb array). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, touchedAny } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { ServiceTemplateTable, TemplateLineItem } from "./repairs_tables.ts";
import type { TemplateJson } from "./repair_schemas.ts";

type TemplateRow = Omit<Selectable<ServiceTemplateTable>, "deleted_at">;

const COLUMNS = [
  "id",
  "name",
  "description",
  "item_category",
  "default_line_items",
  "estimated_minutes",
  "created_at",
  "updated_at",
] as const;

/** JSON columns arrive parsed from one driver and as text from the other. */
function lines(value: unknown): TemplateLineItem[] {
  return (typeof value === "string" ? JSON.parse(value) : value) as TemplateLineItem[];
}

function toTemplate(row: TemplateRow): TemplateJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    itemCategory: row.item_category,
    defaultLineItems: lines(row.default_line_items),
    estimatedMinutes: row.estimated_minutes,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export async function findTemplate(db: Db, id: string): Promise<TemplateJson | undefined> {
  const row = await db.selectFrom("service_templates").select(COLUMNS).where("id", "=", id)
    .where("deleted_at", "is", null).executeTakeFirst();
  return row && toTemplate(row);
}

export function listTemplates(db: Db, params: ListParams & { itemCategory?: string }) {
  let query = db.selectFrom("service_templates").select(COLUMNS).where("deleted_at", "is", null);
  if (params.q) {
    const q = params.q;
    query = query.where((eb) =>
      eb.or([
        containsText("name", q),
        containsText("item_category", q),
        containsText("description", q),
      ])
    );
  }
  if (params.itemCategory) {
    query = query.where(sql`lower(item_category)`, "=", params.itemCategory.toLowerCase());
  }
  return paginate(query, params, {
    sortColumns: { name: "name", itemCategory: "item_category", createdAt: "created_at" },
    tieBreaker: "id",
    map: toTemplate,
  });
}

export interface TemplateValues {
  name: string;
  description: string | null;
  itemCategory: string;
  defaultLineItems: TemplateLineItem[];
  estimatedMinutes: number | null;
}

export async function insertTemplate(
  db: Db,
  v: TemplateValues & { id: string; now: Date },
): Promise<TemplateJson> {
  const row = await db.insertInto("service_templates").values({
    id: v.id,
    name: v.name,
    description: v.description,
    item_category: v.itemCategory,
    default_line_items: jsonb(v.defaultLineItems),
    estimated_minutes: v.estimatedMinutes,
    created_at: v.now,
    updated_at: v.now,
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  return toTemplate(row);
}

export async function updateTemplateRow(
  db: Db,
  id: string,
  changes: Partial<TemplateValues>,
  now: Date,
): Promise<TemplateJson | undefined> {
  const row = await db.updateTable("service_templates").set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.itemCategory !== undefined ? { item_category: changes.itemCategory } : {}),
    ...(changes.defaultLineItems !== undefined
      ? { default_line_items: jsonb(changes.defaultLineItems) }
      : {}),
    ...(changes.estimatedMinutes !== undefined
      ? { estimated_minutes: changes.estimatedMinutes }
      : {}),
    updated_at: now,
  }).where("id", "=", id).where("deleted_at", "is", null).returning(COLUMNS).executeTakeFirst();
  return row && toTemplate(row);
}

export async function softDeleteTemplate(db: Db, id: string, now: Date): Promise<boolean> {
  return touchedAny(
    await db.updateTable("service_templates").set({ deleted_at: now, updated_at: now })
      .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst(),
  );
}
