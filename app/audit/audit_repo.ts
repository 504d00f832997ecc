/**
 * The audit log (API §14): `recordAudit` is called with the transaction of the action it
 * records, so the entry exists exactly when the action happened. Details never hold secrets
 * (no passwords, PINs, tokens or links).
 */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import { uuidv7 } from "../ids.ts";
import type { AuditDetails } from "./audit_tables.ts";

/** Who did it: a user, or nobody (`null`) for anonymous attempts and system jobs. */
export interface AuditActor {
  userId: string | null;
  email: string | null;
}

export interface AuditEvent {
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  entityType?: string | null;
  entityId?: string | null;
  details?: AuditDetails;
}

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

/** The audit actor of a request's actor (or of none). */
export function auditActor(actor: { userId: string; email: string } | undefined): AuditActor {
  return actor ? { userId: actor.userId, email: actor.email } : { userId: null, email: null };
}

/** The actor of `ops` commands run on the database directly. */
export const SYSTEM_AUDIT_ACTOR: AuditActor = { userId: null, email: "system (ops)" };

export async function recordAudit(
  db: Db,
  event: AuditEvent,
  options: { id?: string; at?: Date } = {},
): Promise<void> {
  await db.insertInto("audit_log").values({
    id: options.id ?? uuidv7(),
    at: options.at ?? new Date(),
    actor_id: event.actorId,
    actor_email: event.actorEmail,
    action: event.action,
    entity_type: event.entityType ?? null,
    entity_id: event.entityId ?? null,
    details: jsonb(event.details ?? {}),
  }).execute();
}

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
  if (params.q) query = query.where(auditSearchText, "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { at: "at", createdAt: "at" },
    tieBreaker: "id",
    map: (row): AuditRecord => ({
      id: row.id,
      at: row.at.toISOString(),
      actorId: row.actor_id,
      actorEmail: row.actor_email,
      action: row.action,
      entityType: row.entity_type,
      entityId: row.entity_id,
      details: row.details ?? {},
    }),
  });
}
