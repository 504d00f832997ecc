/** SQL of the inventory lookup tables: unit statuses and item conditions (same shape). */
import type { Selectable, Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { hasRow } from "../db/rows.ts";
import type { LookupTable } from "./inventory_tables.ts";

export type LookupTableName = "unit_statuses" | "item_conditions";

export interface LookupRecord {
  id: string;
  value: string;
  label: string;
  isBuiltIn: boolean;
}

const lookupColumns = ["id", "value", "label", "is_built_in"] as const;

function toLookup(row: Pick<Selectable<LookupTable>, (typeof lookupColumns)[number]>) {
  return { id: row.id, value: row.value, label: row.label, isBuiltIn: row.is_built_in };
}

export async function listLookup(db: Db, table: LookupTableName): Promise<LookupRecord[]> {
  const rows = await db.selectFrom(table).select(lookupColumns)
    .orderBy("is_built_in", "desc").orderBy("created_at").orderBy("value").execute();
  return rows.map(toLookup);
}

export async function findLookup(
  db: Db,
  table: LookupTableName,
  id: string,
): Promise<LookupRecord | undefined> {
  const row = await db.selectFrom(table).select(lookupColumns)
    .where("id", "=", id).executeTakeFirst();
  return row && toLookup(row);
}

/**
 * Whether `value` exists, locking it FOR KEY SHARE until the transaction ends: the one lock of
 * a lookup row. A unit written with the value holds it, so the value cannot be deleted before
 * the unit commits (the units' foreign key takes the same lock).
 */
export async function lockLookupValue(
  trx: Transaction<Database>,
  table: LookupTableName,
  value: string,
): Promise<boolean> {
  return await hasRow(
    trx.selectFrom(table).select("id").where("value", "=", value).forKeyShare(),
  );
}

export async function insertLookup(
  db: Db,
  table: LookupTableName,
  values: { id: string; value: string; label: string; isBuiltIn: boolean; now: Date },
): Promise<LookupRecord> {
  const row = await db.insertInto(table).values({
    id: values.id,
    value: values.value,
    label: values.label,
    is_built_in: values.isBuiltIn,
    created_at: values.now,
  }).returning(lookupColumns).executeTakeFirstOrThrow();
  return toLookup(row);
}

/** Seeds values idempotently (existing values are left alone). */
export async function seedLookupValues(
  db: Db,
  table: LookupTableName,
  rows: ReadonlyArray<{ id: string; value: string; label: string; createdAt: Date }>,
): Promise<void> {
  await db.insertInto(table).values(rows.map((row) => ({
    id: row.id,
    value: row.value,
    label: row.label,
    is_built_in: true,
    created_at: row.createdAt,
  }))).onConflict((oc) => oc.column("value").doNothing()).execute();
}

/** Deletes a lookup row; a unit still referencing it makes this fail (FK, ON DELETE RESTRICT). */
export async function deleteLookup(db: Db, table: LookupTableName, id: string): Promise<void> {
  await db.deleteFrom(table).where("id", "=", id).execute();
}
