/**
 * Registration, email/password login, PIN login and the caller's own profile (API §2).
 * Failed logins are audited; a wrong email and a wrong password answer alike and take as
 * long (one bcrypt comparison either way).
 */
import { splitPinCode } from "../../domain/auth/pin.ts";
import { ForbiddenError, RateLimitedError, UnauthenticatedError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { currentConfig, getRuntimeConfig } from "../platform/runtime_config.ts";
import type { Actor } from "../actor.ts";
import { changeIdentity } from "./actor_cache.ts";
import { checkEmployeePin, clearUserPinFailures } from "./pin_check.ts";
import { listUserRoles } from "./user_roles_repo.ts";
import {
  findCredentialsByEmail,
  findUser,
  hasAnyUser,
  lockUserCreation,
  setPinHash,
} from "./users_repo.ts";
import type { RoleSummary, User } from "./auth_schemas.ts";
import { hashSecret, verifySecret } from "./passwords.ts";
import { type IdentityDeps, insertUserLocked, requireUser, updateUser } from "./users.ts";
import { anonymousActor, audit } from "../audit/audit.ts";
import { actingUserId } from "../actor.ts";

type Deps = IdentityDeps & Pick<AppDeps, "tokens" | "runtimeConfig">;

export interface LoginResult {
  accessToken: string;
  tokenType: "Bearer";
  expiresIn: number;
  user: User;
}

export interface PinLoginResult extends LoginResult {
  lockTimeoutMinutes: number;
}

/** Where a request came from, for the audit log. */
export interface RequestOrigin {
  ip: string;
}

/**
 * 403 `registration_closed` unless registration is open: always while no user exists (the
 * bootstrap), afterwards only while config `registrationOpen` is true (default false).
 */
async function assertRegistrationOpen(db: Db): Promise<void> {
  if (!(await hasAnyUser(db))) return;
  if ((await getRuntimeConfig(db)).registrationOpen) return;
  throw new ForbiddenError("registration_closed", "Registration is closed");
}

/**
 * `POST /auth/register`: the first user ever gets the Admin role. Whether registration is
 * open is checked again under the user-creation lock, so parallel registrations on an empty
 * store make exactly one user while it is closed.
 */
export async function registerUser(
  deps: Deps,
  input: { email: string; password: string; firstName: string; lastName: string },
): Promise<User> {
  // Refused early (no password hashing for a closed registration), then decided under the lock.
  await assertRegistrationOpen(deps.db);
  const passwordHash = await hashSecret(input.password, deps.config.bcryptCost);
  return await changeIdentity(deps, async (trx) => {
    await lockUserCreation(trx);
    await assertRegistrationOpen(trx);
    return await insertUserLocked(
      trx,
      deps,
      anonymousActor(input.email),
      { ...input, passwordHash },
      { firstUserBecomesAdmin: true, action: "user.registered" },
    );
  });
}

function invalidCredentials(): UnauthenticatedError {
  return new UnauthenticatedError("invalid_credentials", "Wrong email or password");
}

export async function login(
  deps: Deps,
  input: { email: string; password: string },
  origin: RequestOrigin,
): Promise<LoginResult> {
  const user = await findCredentialsByEmail(deps.db, input.email);
  const ok = await verifySecret(input.password, user?.passwordHash, deps.config.bcryptCost);
  const now = deps.clock.now();
  if (!user || !ok) {
    await audit(deps, deps.db, anonymousActor(input.email.toLowerCase()), {
      action: "auth.login_failed",
      entityType: "user",
      entityId: user?.id ?? null,
      details: { ip: origin.ip },
    });
    throw invalidCredentials();
  }
  if (!user.isActive) throw new UnauthenticatedError("user_disabled", "This user is disabled");
  const ttl = deps.config.tokenTtlSeconds;
  const accessToken = await deps.tokens.sign(
    { userId: user.id, type: "access", version: user.tokenVersion },
    ttl,
    now,
  );
  return {
    accessToken,
    tokenType: "Bearer",
    expiresIn: ttl,
    user: (await findUser(deps.db, user.id))!,
  };
}

/**
 * `POST /auth/pin-login`: employee number + PIN → a `pos` token. Five wrong PINs for one
 * employee number lock it for 15 minutes (429 even with the right PIN), counted on its
 * holder's counter, which stays with them when they are renumbered.
 */
export async function pinLogin(
  deps: Deps,
  code: string,
  origin: RequestOrigin,
): Promise<PinLoginResult> {
  const { employeeNumber, pin } = splitPinCode(code);
  // The attempt is counted before the PIN is compared (pin_check.ts), so parallel guesses
  // cannot get past the lockout; a matching PIN gives its attempt back.
  const check = await checkEmployeePin(deps, employeeNumber, pin, {
    onFailure: (trx, failure) =>
      audit(deps, trx, anonymousActor(), {
        action: "auth.pin_login_failed",
        entityType: "user",
        entityId: failure.userId,
        details: {
          employeeNumber,
          failures: failure.state.failures,
          locked: failure.state.lockedUntil !== null,
          ip: origin.ip,
        },
      }),
  });
  if (check.outcome === "locked") {
    throw new RateLimitedError(
      check.retryAfterSeconds,
      "Too many wrong PINs; PIN login is locked for a while",
    );
  }
  if (check.outcome === "wrong") {
    throw new UnauthenticatedError("invalid_credentials", "Wrong employee number or PIN");
  }
  const user = check.user;
  if (!user.isActive) throw new UnauthenticatedError("user_disabled", "This user is disabled");
  await clearUserPinFailures(deps, user.id);
  const ttl = deps.config.tokenTtlSeconds;
  const accessToken = await deps.tokens.sign(
    { userId: user.id, type: "pos", version: user.tokenVersion, posVersion: user.posTokenVersion },
    ttl,
    deps.clock.now(),
  );
  const config = await currentConfig(deps);
  return {
    accessToken,
    tokenType: "Bearer",
    expiresIn: ttl,
    lockTimeoutMinutes: config.posLockTimeoutMinutes,
    user: (await findUser(deps.db, user.id))!,
  };
}

/** `POST /auth/set-pin`: revokes the user's older `pos` tokens. */
export async function setPin(deps: Deps, actor: Actor, pin: string): Promise<void> {
  const pinHash = await hashSecret(pin, deps.config.bcryptCost);
  await writePin(deps, actor, pinHash, "user.pin_set");
}

/** `DELETE /auth/pin`: revokes the user's `pos` tokens. */
export async function removePin(deps: Deps, actor: Actor): Promise<void> {
  await writePin(deps, actor, null, "user.pin_removed");
}

/** Stores the actor's PIN hash (null: none) and audits it as `action`. */
async function writePin(
  deps: Deps,
  actor: Actor,
  pinHash: string | null,
  action: "user.pin_set" | "user.pin_removed",
): Promise<void> {
  await changeIdentity(deps, async (trx) => {
    const now = deps.clock.now();
    await setPinHash(trx, actingUserId(actor), pinHash, now);
    await audit(deps, trx, actor, {
      action,
      entityType: "user",
      entityId: actor.userId,
      details: {},
    });
  });
}

export function getMe(deps: Pick<AppDeps, "db">, actor: Actor): Promise<User> {
  return requireUser(deps.db, actingUserId(actor));
}

export function updateMe(
  deps: Deps,
  actor: Actor,
  changes: { firstName?: string; lastName?: string },
): Promise<User> {
  return updateUser(deps, actor, actingUserId(actor), changes);
}

/** `GET /me/permissions`: effective permissions (inheritance expanded) and the roles. */
export async function myPermissions(
  deps: Pick<AppDeps, "db">,
  actor: Actor,
): Promise<{ permissions: string[]; roles: RoleSummary[] }> {
  return {
    permissions: [...actor.permissions].sort(),
    roles: await listUserRoles(deps.db, actingUserId(actor)),
  };
}
