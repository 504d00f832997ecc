/**
 * Who is calling: resolved on every request from the token and the user's current roles,
 * so a role change or a disable applies to existing tokens at once (the actor cache is
 * dropped on every such change).
 */
import { sql } from "kysely";
import { expandPermissions, type Permission } from "../../domain/auth/permissions.ts";
import { UnauthenticatedError } from "../../domain/errors.ts";
import type { Db } from "../db/database.ts";
import type { TokenClaims, TokenType } from "./tokens.ts";
import type { ActorCache } from "./actor_cache.ts";

export interface Actor {
  userId: string;
  email: string;
  tokenType: TokenType;
  permissions: ReadonlySet<Permission>;
}

interface ActorRow {
  id: string;
  email: string;
  is_active: boolean;
  token_version: number;
  pos_token_version: number;
  permissions: string[] | null;
}

/** One query: the user and the union of their roles' permissions. */
export function findActorRow(db: Db, where: { id: string } | { email: string }) {
  return db.selectFrom("users as u")
    .select([
      "u.id",
      "u.email",
      "u.is_active",
      "u.token_version",
      "u.pos_token_version",
      sql<string[] | null>`(
        SELECT array_agg(DISTINCT rp.permission)
        FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
        WHERE ur.user_id = u.id
      )`.as("permissions"),
    ])
    .$if("id" in where, (q) => q.where("u.id", "=", (where as { id: string }).id))
    .$if(
      "email" in where,
      (q) => q.where(sql`lower(u.email)`, "=", (where as { email: string }).email.toLowerCase()),
    )
    .executeTakeFirst() as Promise<ActorRow | undefined>;
}

function toActor(row: ActorRow, tokenType: TokenType): Actor {
  return {
    userId: row.id,
    email: row.email,
    tokenType,
    permissions: expandPermissions(row.permissions ?? []),
  };
}

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
    tokenType: claims.type,
    permissions: state.permissions,
  };
}

/** The development bypass: `X-Dev-User` names a user by id or email (never in production). */
export async function actorForDevUser(db: Db, idOrEmail: string): Promise<Actor> {
  const row = /^[0-9a-f-]{36}$/i.test(idOrEmail)
    ? await findActorRow(db, { id: idOrEmail })
    : await findActorRow(db, { email: idOrEmail });
  if (!row) throw new UnauthenticatedError("unauthenticated", "X-Dev-User names no user");
  if (!row.is_active) throw new UnauthenticatedError("user_disabled", "This user is disabled");
  return toActor(row, "access");
}
