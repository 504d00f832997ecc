/**
 * The one way to write an audit entry (API §14): `audit(deps, trx, actor, event)` takes who
 * from the actor and the entry's id and time from `deps`, and is called with the transaction
 * of the action it records, so the entry exists exactly when the action happened. Details
 * never hold secrets (no passwords, PINs, tokens or links). A read that must never happen
 * unaudited (a vault reveal) goes through `readAudited()`, which writes its entry in the
 * read's own statement.
 */
import type { Actor } from "../actor.ts";
import type { KeyedQuery } from "../db/compiled.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findRowAuditingIt, insertAuditEntry, type RowAuditEntry } from "./audit_repo.ts";
import type { AuditDetails } from "./audit_tables.ts";

/** Who did it: an actor, or an anonymous caller (a failed login names the attempted email). */
export type AuditActor = Pick<Actor, "userId" | "email">;

export function anonymousActor(email: string | null = null): AuditActor {
  return { userId: null, email };
}

export interface AuditEvent {
  action: string;
  entityType?: string | null;
  entityId?: string | null;
  details?: AuditDetails;
}

export async function audit(
  deps: Pick<AppDeps, "clock" | "ids">,
  db: Db,
  actor: AuditActor,
  event: AuditEvent,
): Promise<void> {
  await insertAuditEntry(db, {
    ...stampOf(deps, actor),
    action: event.action,
    entityType: event.entityType ?? null,
    entityId: event.entityId ?? null,
    details: event.details ?? {},
  });
}

/** What `readAudited` records: the entity's id and the details are columns of the row read. */
export type RowAuditEvent<R> = Pick<
  RowAuditEntry<R>,
  "action" | "entityType" | "entityIdColumn" | "detailColumns"
>;

/**
 * For a read that must never happen unaudited (a vault reveal): `read` (at most one row) and
 * the audit entry naming it, written in the same statement, so the entry is committed before
 * the caller sees the row, and a read that could not be audited returns nothing (it throws).
 * Nothing is audited when the read finds no row.
 */
export async function readAudited<R>(
  deps: Pick<AppDeps, "clock" | "ids">,
  db: Db,
  actor: AuditActor,
  read: KeyedQuery<R>,
  event: RowAuditEvent<R>,
): Promise<R | undefined> {
  return await findRowAuditingIt(db, read, { ...event, ...stampOf(deps, actor) });
}

/** What every entry takes from `deps` and the actor: its id, its time and who acted. */
function stampOf(deps: Pick<AppDeps, "clock" | "ids">, actor: AuditActor) {
  return {
    id: deps.ids.uuid(),
    at: deps.clock.now(),
    actorId: actor.userId,
    actorEmail: actor.email,
  };
}
