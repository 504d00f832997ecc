/** SQL of store closures (date ranges without lessons). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { StoreClosure } from "./lesson_schemas.ts";
import type { StoreClosureTable } from "./lessons_tables.ts";
import { isoString } from "../db/rows.ts";

function toClosure(row: Selectable<StoreClosureTable>): StoreClosure {
  return {
    id: row.id,
    startDate: row.start_date,
    endDate: row.end_date,
    reason: row.reason,
    createdAt: isoString(row.created_at),
  };
}

/** Closures overlapping [from, to] (either end optional). */
export function listStoreClosures(db: Db, params: ListParams & { from?: string; to?: string }) {
  let query = db.selectFrom("store_closures").selectAll();
  if (params.from) query = query.where("end_date", ">=", params.from);
  if (params.to) query = query.where("start_date", "<=", params.to);
  if (params.q) query = query.where(containsText("reason", params.q));
  return paginate(query, params, {
    sortColumns: { startDate: "start_date", createdAt: "created_at" },
    tieBreaker: "id",
    map: toClosure,
  });
}

export async function insertStoreClosure(
  db: Db,
  values: { id: string; startDate: string; endDate: string; reason: string; now: Date },
): Promise<StoreClosure> {
  const row = await db.insertInto("store_closures").values({
    id: values.id,
    start_date: values.startDate,
    end_date: values.endDate,
    reason: values.reason,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toClosure(row);
}

/** Deletes the closure; the deleted one, or undefined when there was none. */
export async function deleteStoreClosure(db: Db, id: string): Promise<StoreClosure | undefined> {
  const row = await db.deleteFrom("store_closures").where("id", "=", id).returningAll()
    .executeTakeFirst();
  return row && toClosure(row);
}

/** The closures overlapping [from, to] (what session generation skips). */
export function listClosuresBetween(db: Db, from: string, to: string) {
  return db.selectFrom("store_closures")
    .select(["start_date as startDate", "end_date as endDate"])
    .where("end_date", ">=", from).where("start_date", "<=", to).execute();
}
