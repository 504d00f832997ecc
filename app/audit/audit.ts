/**
 * The one way to write an audit entry (API §14): `audit(deps, trx, actor, event)` takes who
 * from the actor and the entry's id and time from `deps`, and is called with the transaction
 * of the action it records, so the entry exists exactly when the action happened. Details
 * never hold secrets (no passwords, PINs, tokens or links).
 */
import type { Actor } from "../actor.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { insertAuditEntry } from "./audit_repo.ts";
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
    id: deps.ids.uuid(),
    at: deps.clock.now(),
    actorId: actor.userId,
    actorEmail: actor.email,
    action: event.action,
    entityType: event.entityType ?? null,
    entityId: event.entityId ?? null,
    details: event.details ?? {},
  });
}
