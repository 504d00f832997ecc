/**
 * Resolving who is calling: on every request from the token and the user's current roles,
 * so a role change or a disable applies to existing tokens at once (the actor cache is
 * dropped on every such change).
 */
import { expandPermissions } from "../../domain/auth/permissions.ts";
import { UnauthenticatedError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import type { Db } from "../db/database.ts";
import { isUuid } from "../ids.ts";
import type { ActorCache } from "./actor_cache.ts";
import { findActorRecord } from "./actor_repo.ts";
import type { TokenClaims } from "./tokens.ts";

/**
 * Checks a verified token against the user's current state and returns the permissions,
 * through the in-process actor cache (no query on a hit; see `actor_cache.ts`).
 */
export async function actorFromToken(actors: ActorCache, claims: TokenClaims): Promise<Actor> {
  const state = await actors.get(claims.userId);
  if (!state) {
    throw new UnauthenticatedError("unauthenticated", "The access token is no longer valid");
  }
  if (!state.isActive) throw new UnauthenticatedError("user_disabled", "This user is disabled");
  const revoked = claims.version !== state.tokenVersion ||
    (claims.type === "pos" && claims.posVersion !== state.posTokenVersion);
  if (revoked) {
    throw new UnauthenticatedError("unauthenticated", "The access token has been revoked");
  }
  return {
    userId: state.userId,
    email: state.email,
    kind: claims.type,
    permissions: state.permissions,
  };
}

/** The development bypass: `X-Dev-User` names a user by id or email (never in production). */
export async function actorForDevUser(db: Db, idOrEmail: string): Promise<Actor> {
  const record = await findActorRecord(
    db,
    isUuid(idOrEmail) ? { id: idOrEmail } : { email: idOrEmail },
  );
  if (!record) throw new UnauthenticatedError("unauthenticated", "X-Dev-User names no user");
  if (!record.isActive) throw new UnauthenticatedError("user_disabled", "This user is disabled");
  return {
    userId: record.id,
    email: record.email,
    kind: "access",
    permissions: expandPermissions(record.permissions),
  };
}
