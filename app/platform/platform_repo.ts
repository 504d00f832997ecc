/** All SQL of the platform feature: store, locations, runtime config, modules. */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import type { AddressJson } from "./platform_tables.ts";
import type { ListParams } from "../schemas.ts";
import { likePattern } from "../schemas.ts";
import { paginate } from "../db/pagination.ts";
import { jsonb, nullableJsonb } from "../db/jsonb.ts";

export interface StoreRecord {
  name: string;
  timezone: string;
  address: AddressJson | null;
  phone: string | null;
  email: string | null;
  logoFileId: string | null;
  updatedAt: string;
}

export async function findStore(db: Db): Promise<StoreRecord> {
  const row = await db.selectFrom("store").selectAll().where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return {
    name: row.name,
    timezone: row.timezone,
    address: row.address,
    phone: row.phone,
    email: row.email,
    logoFileId: row.logo_file_id,
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function updateStore(
  db: Db,
  changes: Partial<Omit<StoreRecord, "updatedAt">>,
  now: Date,
): Promise<void> {
  await db.updateTable("store").where("id", "=", 1).set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
    ...(changes.address !== undefined ? { address: nullableJsonb(changes.address) as never } : {}),
    ...(changes.phone !== undefined ? { phone: changes.phone } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.logoFileId !== undefined ? { logo_file_id: changes.logoFileId } : {}),
    updated_at: now,
  }).execute();
}

/** The store's IANA time zone (dates such as "today" are store-local). */
export async function findStoreTimezone(db: Db): Promise<string> {
  const row = await db.selectFrom("store").select("timezone").where("id", "=", 1)
    .executeTakeFirst();
  return row?.timezone ?? "UTC";
}

export interface LocationRecord {
  id: string;
  name: string;
  address: AddressJson | null;
  phone: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
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
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function listLocations(db: Db, params: ListParams & { isActive?: boolean }) {
  let query = db.selectFrom("locations").select(locationColumns);
  if (params.q) query = query.where("name", "ilike", likePattern(params.q));
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

export async function updateLocation(
  db: Db,
  id: string,
  changes: {
    name?: string;
    address?: AddressJson | null;
    phone?: string | null;
    isActive?: boolean;
  },
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

export async function deleteLocation(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("locations").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findStoredConfig(db: Db, lock = false): Promise<Record<string, unknown>> {
  let query = db.selectFrom("app_config").select("settings").where("id", "=", 1);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  // postgres.js double-encodes a string bound to a jsonb column: older rows hold a JSON string.
  const settings: unknown = row?.settings;
  if (typeof settings === "string") return JSON.parse(settings) as Record<string, unknown>;
  return (settings as Record<string, unknown> | undefined) ?? {};
}

export async function saveConfig(
  db: Db,
  settings: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db.updateTable("app_config").where("id", "=", 1)
    // `::text::jsonb`: bound as text, so postgres.js does not JSON-encode the string again.
    .set({ settings: jsonb(settings) as never, updated_at: now }).execute();
}

export interface ModuleRecord {
  slug: string;
  name: string;
  description: string;
  licensed: boolean;
  enabled: boolean;
  core: boolean;
}

export function listModules(db: Db): Promise<ModuleRecord[]> {
  return db.selectFrom("modules")
    .select(["slug", "name", "description", "licensed", "enabled", "core"])
    .orderBy("sort_order").execute();
}

export function findModule(db: Db, slug: string, lock = false): Promise<ModuleRecord | undefined> {
  let query = db.selectFrom("modules")
    .select(["slug", "name", "description", "licensed", "enabled", "core"])
    .where("slug", "=", slug);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function setModuleFlags(
  db: Db,
  slug: string,
  flags: { enabled?: boolean; licensed?: boolean },
  now: Date,
): Promise<void> {
  await db.updateTable("modules").where("slug", "=", slug).set({ ...flags, updated_at: now })
    .execute();
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
