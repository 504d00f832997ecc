/** SQL of cash adjustments (cash in and out of an open drawer session). */
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { DrawerAdjustmentTable } from "./pos_tables.ts";

export interface AdjustmentRecord {
  id: string;
  drawerSessionId: string;
  direction: "in" | "out";
  amount: string;
  reason: string;
  createdBy: string | null;
  approvedBy: string | null;
  createdAt: string;
}

function toAdjustment(row: Selectable<DrawerAdjustmentTable>): AdjustmentRecord {
  return {
    id: row.id,
    drawerSessionId: row.drawer_session_id,
    direction: row.direction,
    amount: row.amount,
    reason: row.reason,
    createdBy: row.created_by,
    approvedBy: row.approved_by,
    createdAt: isoString(row.created_at),
  };
}

export async function insertAdjustment(
  db: Db,
  values: {
    id: string;
    drawerSessionId: string;
    direction: "in" | "out";
    amount: string;
    reason: string;
    createdBy: string;
    approvedBy: string | null;
    now: Date;
  },
): Promise<AdjustmentRecord> {
  const row = await db.insertInto("drawer_adjustments").values({
    id: values.id,
    drawer_session_id: values.drawerSessionId,
    direction: values.direction,
    amount: values.amount,
    reason: values.reason,
    created_by: values.createdBy,
    approved_by: values.approvedBy,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toAdjustment(row);
}

export function listAdjustments(db: Db, sessionId: string, params: ListParams) {
  let query = db.selectFrom("drawer_adjustments").selectAll()
    .where("drawer_session_id", "=", sessionId);
  if (params.q) query = query.where(containsText("reason", params.q));
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at" },
    tieBreaker: "id",
    map: toAdjustment,
  });
}

export async function findAdjustmentsOfSessions(
  db: Db,
  sessionIds: readonly string[],
): Promise<AdjustmentRecord[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db.selectFrom("drawer_adjustments").selectAll()
    .where("drawer_session_id", "in", sessionIds).orderBy("created_at").orderBy("id").execute();
  return rows.map(toAdjustment);
}
