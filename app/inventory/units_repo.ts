/** SQL of units: the individual items of serialized and rental products (soft-deleted). */
import { compiledOnce } from "../db/compiled.ts";
import { type Selectable, sql, type UpdateQueryBuilder, type UpdateResult } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { columnsWithPrefix, isoString, selectWithPrefix, softDeleteById } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
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
  if (params.q) query = query.where(containsText("serial_number", params.q));
  if (params.status) query = query.where("status", "=", params.status);
  if (params.condition) query = query.where("condition", "=", params.condition);
  return paginate(query, params, {
    sortColumns: {
      serialNumber: "serial_number",
      status: "status",
      createdAt: "created_at",
      updatedAt: "updated_at",
    },
    nullableSorts: ["serialNumber"],
    tieBreaker: "id",
    map: toUnit,
  });
}

/** The live unit (not soft-deleted). */
/**
 * The live unit with this serial number (case-insensitive, through `units_serial_lower_idx`;
 * the caller trims), the most recently created one when units of several products share it.
 */
export async function findUnitBySerial(db: Db, serial: string): Promise<UnitRecord | undefined> {
  const row = await db.selectFrom("units").select(unitColumns)
    .where(sql`lower(serial_number)`, "=", serial.toLowerCase())
    .where("serial_number", "is not", null)
    .where("deleted_at", "is", null)
    .orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
  return row && toUnit(row);
}

const liveUnitRows = compiledOnce((db: Db, id: string) =>
  db.selectFrom("units").select(unitColumns).where("id", "=", id).where("deleted_at", "is", null)
);

export async function findUnit(db: Db, id: string): Promise<UnitRecord | undefined> {
  const [row] = await liveUnitRows(db, id);
  return row && toUnit(row);
}

/**
 * A unit's columns (`alias`, each renamed with `prefix`) for a statement that reads a unit
 * beside other records (the counter's scan answers the unit it found without a second
 * query), read back with {@link findUnitInColumns}.
 */
export function listUnitColumns(alias: string, prefix: string) {
  return selectWithPrefix(alias, prefix, unitColumns);
}

/** The unit in `row`'s columns selected by {@link listUnitColumns}; none when null. */
export function findUnitInColumns(
  row: Record<string, unknown>,
  prefix: string,
): UnitRecord | undefined {
  const columns = columnsWithPrefix(row, prefix, unitColumns);
  return columns && toUnit(columns as unknown as Selectable<UnitTable>);
}

/**
 * Who changed a unit and through what (`unit` for an edit, `sale`, `void`, `refund`,
 * `rental`, `return`, `cancel`, `buyout`), for its history (`unit_history`): every creation
 * and every change of status or condition writes a history row in the same statement.
 */
export interface UnitChangeBy {
  actorId: string | null;
  source: string;
}

const UNKNOWN_CHANGE: UnitChangeBy = { actorId: null, source: "unit" };

export async function insertUnit(
  db: Db,
  values: Omit<UnitRecord, "createdAt" | "updatedAt"> & { now: Date },
  by: UnitChangeBy = UNKNOWN_CHANGE,
): Promise<UnitRecord> {
  const row = await db.with("u", (qb) =>
    qb.insertInto("units").values({
      id: values.id,
      product_id: values.productId,
      serial_number: values.serialNumber,
      status: values.status,
      condition: values.condition,
      notes: values.notes,
      created_at: values.now,
      updated_at: values.now,
    }).returning(unitColumns))
    .with("h", (qb) => historyOf(qb, "created", by, values.now))
    .selectFrom("u").select(unitColumns).executeTakeFirstOrThrow();
  return toUnit(row);
}

/** The history row of the unit in CTE `u` (id from the database, like a sequence value). */
// deno-lint-ignore no-explicit-any
function historyOf(qb: any, kind: "created" | "changed", by: UnitChangeBy, now: Date) {
  return qb.insertInto("unit_history")
    .columns(["id", "unit_id", "kind", "status", "condition", "source", "actor_id", "at"])
    // deno-lint-ignore no-explicit-any
    .expression((eb: any) =>
      eb.selectFrom("u").select([
        sql`gen_random_uuid()`.as("id"),
        "u.id",
        sql`${kind}`.as("kind"),
        "u.status",
        "u.condition",
        sql`${by.source}`.as("source"),
        sql`${by.actorId}::uuid`.as("actor_id"),
        sql`${now}::timestamptz`.as("at"),
      ])
    );
}

type UnitUpdate = UpdateQueryBuilder<Database, "units", "units", UpdateResult>;

/**
 * Changes a live unit; undefined when there is none (or, with `onlyIf`, when it is not in
 * that status or of that product: the check and the change are one statement, so of two
 * callers racing for an in-stock unit exactly one gets it).
 */
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
  by: UnitChangeBy = UNKNOWN_CHANGE,
  onlyIf: { status?: string; productId?: string } = {},
): Promise<UnitRecord | undefined> {
  const guarded = (q: UnitUpdate) => {
    let query = q;
    if (onlyIf.status !== undefined) query = query.where("status", "=", onlyIf.status);
    if (onlyIf.productId !== undefined) query = query.where("product_id", "=", onlyIf.productId);
    return query;
  };
  const update = (qb: Db) =>
    guarded(
      qb.updateTable("units").set({
        ...(changes.serialNumber !== undefined ? { serial_number: changes.serialNumber } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.condition !== undefined ? { condition: changes.condition } : {}),
        ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
        updated_at: now,
      }).where("id", "=", id).where("deleted_at", "is", null),
    ).returning(unitColumns);
  // A change of status or condition is written to the unit's history in the same statement.
  const row = changes.status === undefined && changes.condition === undefined
    ? await update(db).executeTakeFirst()
    : await db.with("u", (qb) => update(qb as unknown as Db))
      .with("h", (qb) => historyOf(qb, "changed", by, now))
      .selectFrom("u").select(unitColumns).executeTakeFirst();
  return row && toUnit(row);
}

export function softDeleteUnit(db: Db, id: string, now: Date): Promise<boolean> {
  return softDeleteById(db, "units", id, now);
}
