/**
 * Reads of a unit's history (`unit_history`, written by `units_repo.ts` in the statement of
 * every unit creation and change of status or condition), and of the unit by serial number,
 * for the unit's life story (API §13). Both are index lookups: `units_serial_lower_idx` and
 * `unit_history_unit_idx`.
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";
import type { UnitRecord } from "./units_repo.ts";

export interface UnitHistoryRecord {
  kind: "created" | "changed";
  status: string;
  condition: string;
  source: string;
  actorId: string | null;
  at: string;
}

/** The unit's history, oldest first. */
export async function findUnitHistory(db: Db, unitId: string): Promise<UnitHistoryRecord[]> {
  const rows = await db.selectFrom("unit_history")
    .select(["kind", "status", "condition", "source", "actor_id", "at"])
    .where("unit_id", "=", unitId).orderBy("at").orderBy("seq").execute();
  return rows.map((r) => ({
    kind: r.kind,
    status: r.status,
    condition: r.condition,
    source: r.source,
    actorId: r.actor_id,
    at: isoString(r.at),
  }));
}

/**
 * The live unit with this serial number (case-insensitive; the caller trims), the most
 * recently created one when units of several products share it.
 */
export async function findUnitBySerial(db: Db, serial: string): Promise<UnitRecord | undefined> {
  const row = await db.selectFrom("units")
    .select([
      "id",
      "product_id",
      "serial_number",
      "status",
      "condition",
      "notes",
      "created_at",
      "updated_at",
    ])
    .where(sql`lower(serial_number)`, "=", serial.toLowerCase())
    .where("serial_number", "is not", null)
    .where("deleted_at", "is", null)
    .orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
  return row && {
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
