/** SQL of registers (the tills of a location). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { RegisterTable } from "./pos_tables.ts";

export interface RegisterRecord {
  id: string;
  name: string;
  locationId: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

function toRegister(row: Selectable<RegisterTable>): RegisterRecord {
  return {
    id: row.id,
    name: row.name,
    locationId: row.location_id,
    isActive: row.is_active,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listRegisters(
  db: Db,
  params: ListParams & { locationId?: string; isActive?: boolean },
) {
  let query = db.selectFrom("registers").selectAll();
  if (params.q) query = query.where(containsText("name", params.q));
  if (params.locationId) query = query.where("location_id", "=", params.locationId);
  if (params.isActive !== undefined) query = query.where("is_active", "=", params.isActive);
  return paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toRegister,
  });
}

export async function findRegister(db: Db, id: string): Promise<RegisterRecord | undefined> {
  const row = await db.selectFrom("registers").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toRegister(row);
}

/**
 * The registers whose id is `idOrName`, or whose name is it (case-insensitive), optionally at
 * one location (names are unique per location): how `ops` finds "Front".
 */
export async function findRegistersByIdOrName(
  db: Db,
  idOrName: string,
  locationId?: string,
): Promise<RegisterRecord[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  let query = db.selectFrom("registers").selectAll().where((eb) => {
    const byName = eb(sql`lower(name)`, "=", idOrName.toLowerCase());
    return isUuid ? eb.or([eb("id", "=", idOrName), byName]) : byName;
  });
  if (locationId) query = query.where("location_id", "=", locationId);
  return (await query.orderBy("name").orderBy("id").execute()).map(toRegister);
}

export async function insertRegister(
  db: Db,
  values: { id: string; name: string; locationId: string; isActive: boolean; now: Date },
): Promise<RegisterRecord> {
  const row = await db.insertInto("registers").values({
    id: values.id,
    name: values.name,
    location_id: values.locationId,
    is_active: values.isActive,
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toRegister(row);
}

export async function updateRegister(
  db: Db,
  id: string,
  changes: { name?: string; locationId?: string; isActive?: boolean },
  now: Date,
): Promise<RegisterRecord | undefined> {
  const row = await db.updateTable("registers").set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.locationId !== undefined ? { location_id: changes.locationId } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    updated_at: now,
  }).where("id", "=", id).returningAll().executeTakeFirst();
  return row && toRegister(row);
}

/** Deletes the register; whether there was one (drawer history → a foreign-key violation). */
export function deleteRegisterRow(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "registers", id);
}
