/** SQL of units: the individual items of serialized and rental products (soft-deleted). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, softDeleteById } from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type { UnitTable } from "./inventory_tables.ts";

export interface UnitRecord {
  id: string;
  productId: string;
  serialNumber: string | null;
  status: string;
  condition: string;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

const unitColumns = [
  "id",
  "product_id",
  "serial_number",
  "status",
  "condition",
  "notes",
  "created_at",
  "updated_at",
] as const;

function toUnit(row: Omit<Selectable<UnitTable>, "deleted_at">): UnitRecord {
  return {
    id: row.id,
    productId: row.product_id,
    serialNumber: row.serial_number,
    status: row.status,
    condition: row.condition,
    notes: row.notes,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listUnits(
  db: Db,
  productId: string,
  params: ListParams & { status?: string; condition?: string },
) {
  let query = db.selectFrom("units").select(unitColumns)
    .where("product_id", "=", productId).where("deleted_at", "is", null);
  if (params.q) query = query.where("serial_number", "ilike", likePattern(params.q));
  if (params.status) query = query.where("status", "=", params.status);
  if (params.condition) query = query.where("condition", "=", params.condition);
  return paginate(query, params, {
    sortColumns: {
      serialNumber: "serial_number",
      status: "status",
      createdAt: "created_at",
      updatedAt: "updated_at",
    },
    tieBreaker: "id",
    map: toUnit,
  });
}

/** The live unit (not soft-deleted). */
export async function findUnit(db: Db, id: string): Promise<UnitRecord | undefined> {
  const row = await db.selectFrom("units").select(unitColumns)
    .where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
  return row && toUnit(row);
}

export async function insertUnit(
  db: Db,
  values: Omit<UnitRecord, "createdAt" | "updatedAt"> & { now: Date },
): Promise<UnitRecord> {
  const row = await db.insertInto("units").values({
    id: values.id,
    product_id: values.productId,
    serial_number: values.serialNumber,
    status: values.status,
    condition: values.condition,
    notes: values.notes,
    created_at: values.now,
    updated_at: values.now,
  }).returning(unitColumns).executeTakeFirstOrThrow();
  return toUnit(row);
}

/** Changes a live unit; undefined when there is none. */
export async function updateUnit(
  db: Db,
  id: string,
  changes: {
    serialNumber?: string | null;
    status?: string;
    condition?: string;
    notes?: string | null;
  },
  now: Date,
): Promise<UnitRecord | undefined> {
  const row = await db.updateTable("units").set({
    ...(changes.serialNumber !== undefined ? { serial_number: changes.serialNumber } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.condition !== undefined ? { condition: changes.condition } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    updated_at: now,
  }).where("id", "=", id).where("deleted_at", "is", null)
    .returning(unitColumns).executeTakeFirst();
  return row && toUnit(row);
}

export function softDeleteUnit(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "units", id, now);
}
