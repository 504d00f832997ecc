/** The audit log's SQL (API §14); entries are written through `audit()` in audit.ts. */
import { sql } from "kysely";
import { CompiledStatements, type KeyedQuery } from "../db/compiled.ts";
import type { Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { AuditDetails } from "./audit_tables.ts";
import { isoString } from "../db/rows.ts";

export interface AuditRecord {
  id: string;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  details: AuditDetails;
}

/** Inserts one entry; use cases call `audit()` (audit.ts), which fills id, time and actor. */
export async function insertAuditEntry(
  db: Db,
  entry: Omit<AuditRecord, "at"> & { at: Date },
): Promise<void> {
  await db.insertInto("audit_log").values({
    id: entry.id,
    at: entry.at,
    actor_id: entry.actorId,
    actor_email: entry.actorEmail,
    action: entry.action,
    entity_type: entry.entityType,
    entity_id: entry.entityId,
    details: jsonb(entry.details),
  }).execute();
}

/** An audit entry whose entity id and details are columns of the row it audits. */
export interface RowAuditEntry<R> {
  id: string;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  entityType: string;
  /** The column of the read's row holding the audited entity's id. */
  entityIdColumn: keyof R & string;
  /** Each detail's key → the column of the read's row it takes its value from. */
  detailColumns: Record<string, keyof R & string>;
}

/**
 * `read` (at most one row) and, when it finds its row, the audit entry of that read, in ONE
 * statement (a data-modifying CTE): the entry commits with the read, or neither happens. The
 * caller acts on the row only after this resolves, so nothing it does with it goes unaudited.
 */
export async function findRowAuditingIt<R>(
  db: Db,
  read: KeyedQuery<R>,
  entry: RowAuditEntry<R>,
): Promise<R | undefined> {
  const key = `${read.key}|${entry.entityIdColumn}|${JSON.stringify(entry.detailColumns)}`;
  const values = [
    ...read.values,
    entry.id,
    entry.at,
    entry.actorId,
    entry.actorEmail,
    entry.action,
    entry.entityType,
  ];
  const rows = await auditedReads.run(db, key, values, () => {
    const column = (name: string) => sql.ref(`found.${name}`);
    const details = sql.join(
      Object.entries(entry.detailColumns).flatMap(([key, name]) => [sql.lit(key), column(name)]),
    );
    return sql<R>`WITH found AS (${read.build()}),
      audited AS (
        INSERT INTO audit_log (id, at, actor_id, actor_email, action, entity_type, entity_id, details)
        SELECT ${entry.id}::uuid, ${entry.at}::timestamptz, ${entry.actorId}::uuid,
          ${entry.actorEmail}::text, ${entry.action}::text, ${entry.entityType}::text,
          ${column(entry.entityIdColumn)}::text, jsonb_build_object(${details})
        FROM found
      )
      SELECT * FROM found`.compile(db);
  });
  return rows[0];
}

/** The statements of `findRowAuditingIt`, compiled once per read and audit shape. */
const auditedReads = new CompiledStatements();

export interface AuditFilters {
  actorId?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: string;
  to?: string;
}

/** The text `q` searches: exactly the expression indexed by audit_log_search_trgm_idx. */
const auditSearchText = sql<string>`(action || ' ' || coalesce(actor_email, '') || ' ' ||
  coalesce(entity_type, ''))`;

/** `q`: case-insensitive substring of action, actor email or entity type. */
export function listAuditLog(db: Db, params: ListParams & AuditFilters) {
  let query = db.selectFrom("audit_log").select([
    "id",
    "at",
    "actor_id",
    "actor_email",
    "action",
    "entity_type",
    "entity_id",
    "details",
  ]);
  if (params.actorId) query = query.where("actor_id", "=", params.actorId);
  if (params.action) query = query.where("action", "=", params.action);
  if (params.entityType) query = query.where("entity_type", "=", params.entityType);
  if (params.entityId) query = query.where("entity_id", "=", params.entityId);
  if (params.from) query = query.where("at", ">=", new Date(params.from));
  if (params.to) query = query.where("at", "<=", new Date(params.to));
  if (params.q) query = query.where(containsText(auditSearchText, params.q));
  return paginate(query, params, {
    sortColumns: { at: "at", createdAt: "at" },
    tieBreaker: "id",
    map: (row): AuditRecord => ({
      id: row.id,
      at: isoString(row.at),
      actorId: row.actor_id,
      actorEmail: row.actor_email,
      action: row.action,
      entityType: row.entity_type,
      entityId: row.entity_id,
      details: row.details ?? {},
    }),
  });
}
