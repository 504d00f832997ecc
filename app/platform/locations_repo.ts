/** The SQL of locations (the shop's sites: registers, drawers and sales refer to them). */
import { sql } from "kysely";
import type { AddressJson } from "../db/column_types.ts";
import type { Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { hasRow, isoString, touchedAny } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";

export interface LocationRecord {
  id: string;
  name: string;
  address: AddressJson | null;
  phone: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface LocationChanges {
  name?: string;
  address?: AddressJson | null;
  phone?: string | null;
  isActive?: boolean;
}

const locationColumns = [
  "id",
  "name",
  "address",
  "phone",
  "is_active",
  "created_at",
  "updated_at",
] as const;

function toLocation(row: {
  id: string;
  name: string;
  address: AddressJson | null;
  phone: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}): LocationRecord {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    isActive: row.is_active,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

export function listLocations(db: Db, params: ListParams & { isActive?: boolean }) {
  let query = db.selectFrom("locations").select(locationColumns);
  if (params.q) query = query.where(containsText("name", params.q));
  if (params.isActive !== undefined) query = query.where("is_active", "=", params.isActive);
  return paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toLocation,
  });
}

export async function findLocation(db: Db, id: string): Promise<LocationRecord | undefined> {
  const row = await db.selectFrom("locations").select(locationColumns).where("id", "=", id)
    .executeTakeFirst();
  return row && toLocation(row);
}

export async function insertLocation(
  db: Db,
  values: {
    id: string;
    name: string;
    address: AddressJson | null;
    phone: string | null;
    isActive: boolean;
    now: Date;
  },
): Promise<LocationRecord> {
  const row = await db.insertInto("locations").values({
    id: values.id,
    name: values.name,
    address: nullableJsonb(values.address) as never,
    phone: values.phone,
    is_active: values.isActive,
    created_at: values.now,
    updated_at: values.now,
  }).returning(locationColumns).executeTakeFirstOrThrow();
  return toLocation(row);
}

/** The updated location, or undefined when there is none with this id. */
export async function updateLocationRow(
  db: Db,
  id: string,
  changes: LocationChanges,
  now: Date,
): Promise<LocationRecord | undefined> {
  const row = await db.updateTable("locations").where("id", "=", id).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.address !== undefined ? { address: nullableJsonb(changes.address) as never } : {}),
    ...(changes.phone !== undefined ? { phone: changes.phone } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    updated_at: now,
  }).returning(locationColumns).executeTakeFirst();
  return row && toLocation(row);
}

/** Whether the shop has any location (active or not). */
export async function hasAnyLocation(db: Db): Promise<boolean> {
  return await hasRow(db.selectFrom("locations").select("id").limit(1));
}

/** Whether there was such a location (a foreign key refuses one still referenced). */
export async function deleteLocationRow(db: Db, id: string): Promise<boolean> {
  return touchedAny(await db.deleteFrom("locations").where("id", "=", id).executeTakeFirst());
}

/**
 * The ids of the locations named by `idOrName`: its id, or its name compared
 * case-insensitively (several locations may share a name), for `ops report daily --location`.
 */
export async function findLocationIdsByIdOrName(db: Db, idOrName: string): Promise<string[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  const rows = await db.selectFrom("locations").select("id")
    .where((eb) =>
      isUuid
        ? eb.or([eb("id", "=", idOrName), eb(sql`lower(name)`, "=", idOrName.toLowerCase())])
        : eb(sql`lower(name)`, "=", idOrName.toLowerCase())
    ).execute();
  return rows.map((r) => r.id);
}
