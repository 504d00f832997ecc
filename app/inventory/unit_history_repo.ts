/**
 * Reads of a unit's history (`unit_history`, written by `units_repo.ts` in the statement of
 * every unit creation and change of status or condition), for the unit's life story (API
 * §13): an index lookup on `unit_history_unit_idx`.
 */
import type { Db } from "../db/database.ts";
import { isoString } from "../db/rows.ts";

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
