/** The SQL of the store: the one row (id 1) of name, time zone, address and contact. */
import type { AddressJson } from "../db/column_types.ts";
import type { Db } from "../db/database.ts";
import { nullableJsonb } from "../db/jsonb.ts";
import { isoString } from "../db/rows.ts";

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
    updatedAt: isoString(row.updated_at),
  };
}

/** The store's IANA time zone (dates such as "today" are store-local). */
export async function findStoreTimezone(db: Db): Promise<string> {
  const row = await db.selectFrom("store").select("timezone").where("id", "=", 1)
    .executeTakeFirst();
  return row?.timezone ?? "UTC";
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

/** Seed: the store row with defaults, unless it exists. */
export async function insertStoreIfMissing(
  db: Db,
  defaults: { name: string; timezone: string },
): Promise<void> {
  await db.insertInto("store")
    .values({ id: 1, ...defaults })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}
