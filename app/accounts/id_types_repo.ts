/** SQL of the identity document types lookup (`id_types`). */
import type { Db } from "../db/database.ts";
import { hasRow } from "../db/rows.ts";

export interface IdTypeRecord {
  id: string;
  value: string;
  label: string;
  isBuiltIn: boolean;
}

export async function listIdTypes(db: Db): Promise<IdTypeRecord[]> {
  const rows = await db.selectFrom("id_types").select(["id", "value", "label", "is_built_in"])
    .orderBy("is_built_in", "desc").orderBy("label").execute();
  return rows.map((r) => ({ id: r.id, value: r.value, label: r.label, isBuiltIn: r.is_built_in }));
}

/**
 * Whether `value` exists, holding a key-share lock (the one lock of id type rows, the same an
 * identifier's foreign key check takes) so the type cannot be deleted before commit.
 */
export async function idTypeExists(db: Db, value: string): Promise<boolean> {
  return await hasRow(
    db.selectFrom("id_types").select("id").where("value", "=", value).forKeyShare(),
  );
}

export async function findIdType(db: Db, id: string): Promise<IdTypeRecord | undefined> {
  const r = await db.selectFrom("id_types").select(["id", "value", "label", "is_built_in"])
    .where("id", "=", id).executeTakeFirst();
  return r && { id: r.id, value: r.value, label: r.label, isBuiltIn: r.is_built_in };
}

/** Deletes an id type; an identifier still using it makes this fail (foreign key). */
export async function deleteIdTypeRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("id_types").where("id", "=", id).execute();
}

export async function insertIdType(
  db: Db,
  values: { id: string; value: string; label: string; isBuiltIn: boolean; now: Date },
  options: { ignoreExisting?: boolean } = {},
): Promise<void> {
  let query = db.insertInto("id_types").values({
    id: values.id,
    value: values.value,
    label: values.label,
    is_built_in: values.isBuiltIn,
    created_at: values.now,
  });
  if (options.ignoreExisting) query = query.onConflict((oc) => oc.column("value").doNothing());
  await query.execute();
}
