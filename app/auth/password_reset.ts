/**
 * Passwords: change (with the current one), forgot → emailed single-use token (4 h, at most
 * 3 per hour per address, the answer never tells whether the address exists), admin reset
 * link (1 h), and reset with a token. A new password revokes every older token.
 */
import { BadInputError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueEmail } from "../email/outbox.ts";
import { changeIdentity } from "./actor_cache.ts";
import {
  consumeResetToken,
  countResetTokensSince,
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
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { actingUserId } from "../actor.ts";

type Deps = Pick<
  AppDeps,
  "db" | "actors" | "clock" | "ids" | "config" | "logger" | "outboxCipher"
>;

const FORGOT_PASSWORD_PER_HOUR = 3;

/**
 * `POST /auth/forgot-password`: queues the email (in the same transaction as the token)
 * when the address belongs to an active user and fewer than 3 were sent in the last hour.
 * Answers the same in every case.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
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

/** `POST /auth/reset-password/:userId` (users.admin): a link valid 1 hour. */
export async function createAdminResetLink(
  deps: Deps,
  actor: Actor,
  userId: string,
): Promise<ResetLink> {
  return await changeIdentity(deps, async (trx) => {
    if (!(await lockUser(trx, userId))) throw userNotFound(userId);
    const link = await issueResetLink(trx, deps, userId, "admin");
    await audit(deps, trx, actor, {
      action: "user.reset_link_created",
      entityType: "user",
      entityId: userId,
      details: { expiresAt: link.expiresAt },
    });
    return link;
  });
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
