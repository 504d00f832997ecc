/**
 * Who acts, for every use case: a signed-in user (an access or POS token, or the development
 * bypass) or the system (the `ops` CLI and background jobs, on the database directly).
 * Use cases take an `Actor` and never care which driver built it.
 */
import { type Permission, PERMISSIONS } from "../domain/auth/permissions.ts";
import { ForbiddenError } from "../domain/errors.ts";

export interface Actor {
  /** The user's id; null for the system actor. */
  userId: string | null;
  /** The user's email; the system actor's label for the audit log. */
  email: string | null;
  /** How the actor authenticated: a full `access` login, a `pos` PIN login, or `system`. */
  kind: "access" | "pos" | "system";
  permissions: ReadonlySet<Permission>;
}

/** The actor of `ops` commands and jobs: every permission, audited as "system (ops)". */
export const SYSTEM_ACTOR: Actor = Object.freeze({
  userId: null,
  email: "system (ops)",
  kind: "system",
  permissions: new Set(PERMISSIONS.map((p) => p.id)),
});

/**
 * The user behind an action that must be done by a person (a cashier ringing up a sale, an
 * approver): the system actor is refused.
 */
export function actingUserId(actor: Actor): string {
  if (actor.userId === null) {
    throw new ForbiddenError("forbidden", "This action must be done by a signed-in user");
  }
  return actor.userId;
}
