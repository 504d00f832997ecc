/**
 * Passwords: change (with the current one), forgot → emailed single-use token (4 h, at most
 * 3 per hour per address, the answer never tells whether the address exists), admin reset
 * link (1 h), and reset with a token. A new password revokes every older token.
 */
import { assertCanGrant } from "../../domain/auth/privileges.ts";
import { BadInputError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueEmail } from "../email/outbox.ts";
import { changeIdentity } from "./actor_cache.ts";
import {
  consumeResetToken,
  countResetTokensSince,
  findResetTokenAccount,
  revokeResetTokens,
} from "./reset_tokens_repo.ts";
import {
  findCredentialsByEmail,
  findCredentialsById,
  lockUser,
  setPasswordHash,
} from "./users_repo.ts";
import type { ResetLink } from "./auth_schemas.ts";
import { hashSecret, verifySecret } from "./passwords.ts";
import { hashResetToken, issueResetLink } from "./reset_tokens.ts";
import { userNotFound } from "./users.ts";
import { auditingDenials, grantedPermissionsOf } from "./privileges.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { actingUserId } from "../actor.ts";

type Deps = Pick<
  AppDeps,
  "db" | "actors" | "cluster" | "clock" | "ids" | "config" | "logger" | "outboxCipher"
>;

const FORGOT_PASSWORD_PER_HOUR = 3;

/**
 * Every forgot-password request takes at least this long, whatever the outcome. Sending the
 * email (a transaction writing a token, an encrypted outbox row and an audit entry) takes a
 * few milliseconds (p90 ~10 ms) and an unknown address none, so without this floor the
 * answer time told which addresses have an account. Set far above the work's usual duration;
 * the route is rate limited, so the wait costs a client nothing.
 */
export const FORGOT_PASSWORD_MIN_MS = 100;

/**
 * `POST /auth/forgot-password`: queues the email (in the same transaction as the token)
 * when the address belongs to an active user and fewer than 3 were sent in the last hour.
 * Answers the same in every case, and no sooner than `FORGOT_PASSWORD_MIN_MS` after it
 * started (known, unknown, disabled and rate-limited addresses alike).
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const started = performance.now();
  try {
    await sendResetEmail(deps, email);
  } finally {
    const remaining = FORGOT_PASSWORD_MIN_MS - (performance.now() - started);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
  }
}

async function sendResetEmail(deps: Deps, email: string): Promise<void> {
  const user = await findCredentialsByEmail(deps.db, email);
  if (!user || !user.isActive) return;
  await changeIdentity(deps, async (trx) => {
    // The user row lock serializes concurrent requests for one address (exact limit).
    const locked = await lockUser(trx, user.id);
    if (!locked) return;
    const now = deps.clock.now();
    const recent = await countResetTokensSince(
      trx,
      user.id,
      "email",
      new Date(now.getTime() - 60 * 60 * 1000),
    );
    if (recent >= FORGOT_PASSWORD_PER_HOUR) {
      deps.logger.info("forgot-password limit reached; nothing sent", { userId: user.id });
      return;
    }
    const link = await issueResetLink(trx, deps, user.id, "email");
    await enqueueEmail(trx, deps, {
      to: locked.email,
      subject: "Reset your password",
      text: [
        "Someone (hopefully you) asked to reset the password of your account.",
        "",
        `Open this link within 4 hours to choose a new password:\n${link.url}`,
        "",
        "The link works once. If you did not ask for this, ignore this email.",
      ].join("\n"),
    });
    await audit(deps, trx, { userId: user.id, email: locked.email }, {
      action: "auth.password_reset_requested",
      entityType: "user",
      entityId: user.id,
      details: {},
    });
  });
}

/**
 * `POST /auth/reset-password/:userId` (users.admin): a link valid 1 hour. Whoever gets it can
 * act as the user, so the caller must hold every permission the user holds (403
 * `forbidden`, audited).
 */
export async function createAdminResetLink(
  deps: Deps,
  actor: Actor,
  userId: string,
): Promise<ResetLink> {
  const denied = { action: "user.reset_link_denied", entityType: "user", entityId: userId };
  return await auditingDenials(deps, actor, denied, () =>
    changeIdentity(deps, async (trx) => {
      if (!(await lockUser(trx, userId))) throw userNotFound(userId);
      assertCanGrant(actor.permissions, await grantedPermissionsOf(trx, userId));
      const link = await issueResetLink(trx, deps, userId, "admin");
      await audit(deps, trx, actor, {
        action: "user.reset_link_created",
        entityType: "user",
        entityId: userId,
        details: { expiresAt: link.expiresAt },
      });
      return link;
    }));
}

/**
 * Whose password a reset link sets, for the page the link opens (`GET /reset-password`):
 * undefined when the link no longer works (used, expired, unknown). Reading it uses nothing up.
 */
export async function findResetLinkAccount(
  deps: Pick<AppDeps, "db" | "clock">,
  token: string,
): Promise<{ email: string; firstName: string; lastName: string } | undefined> {
  return await findResetTokenAccount(deps.db, await hashResetToken(token), deps.clock.now());
}

/** `POST /auth/reset-password`: the token works once; unknown, used or expired → 400. */
export async function resetPassword(
  deps: Deps,
  input: { token: string; newPassword: string },
): Promise<void> {
  const passwordHash = await hashSecret(input.newPassword, deps.config.bcryptCost);
  const tokenHash = await hashResetToken(input.token);
  await changeIdentity(deps, async (trx) => {
    const now = deps.clock.now();
    const userId = await consumeResetToken(trx, tokenHash, now);
    if (!userId) {
      throw new BadInputError("invalid_token", "The reset token is invalid, used or expired");
    }
    const user = await lockUser(trx, userId);
    await setPasswordHash(trx, userId, passwordHash, now);
    await revokeResetTokens(trx, userId, now);
    await audit(deps, trx, { userId: userId, email: user?.email ?? null }, {
      action: "user.password_reset",
      entityType: "user",
      entityId: userId,
      details: {},
    });
  });
}

/** `POST /auth/change-password`: a wrong current password → 400 `invalid_current_password`. */
export async function changePassword(
  deps: Deps,
  actor: Actor,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const user = await findCredentialsById(deps.db, actingUserId(actor));
  const ok = await verifySecret(input.currentPassword, user?.passwordHash, deps.config.bcryptCost);
  if (!user || !ok) {
    throw new BadInputError("invalid_current_password", "The current password is wrong");
  }
  const passwordHash = await hashSecret(input.newPassword, deps.config.bcryptCost);
  await changeIdentity(deps, async (trx) => {
    const now = deps.clock.now();
    await setPasswordHash(trx, actingUserId(actor), passwordHash, now);
    await revokeResetTokens(trx, actingUserId(actor), now);
    await audit(deps, trx, actor, {
      action: "user.password_changed",
      entityType: "user",
      entityId: actor.userId,
      details: {},
    });
  });
}
