/**
 * Passwords: change (with the current one), forgot → emailed single-use token (4 h, at most
 * 3 per hour per address, the answer never tells whether the address exists), admin reset
 * link (1 h), and reset with a token. A new password revokes every older token.
 */
import { BadInputError, NotFoundError } from "../../domain/errors.ts";
import { type AuditActor, recordAudit } from "../audit/audit_repo.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueEmail } from "../email/outbox.ts";
import { changeIdentity } from "./actor_cache.ts";
import {
  consumeResetToken,
  countResetTokensSince,
  findCredentialsByEmail,
  findCredentialsById,
  insertResetToken,
  revokeResetTokens,
  setPasswordHash,
} from "./auth_repo.ts";
import type { ResetLink } from "./auth_schemas.ts";
import { hashSecret, verifySecret } from "./passwords.ts";
import { hashResetToken, newResetToken, resetUrl } from "./reset_tokens.ts";

type Deps = Pick<AppDeps, "db" | "actors" | "clock" | "ids" | "config" | "logger">;

export const EMAIL_RESET_TTL_SECONDS = 4 * 60 * 60;
export const ADMIN_RESET_TTL_SECONDS = 60 * 60;
export const FORGOT_PASSWORD_PER_HOUR = 3;

/** Stores a new token (its hash) for the user and returns the link carrying it. */
export async function issueResetLink(
  trx: Db,
  deps: Pick<AppDeps, "clock" | "ids" | "config">,
  userId: string,
  purpose: "email" | "admin",
): Promise<ResetLink> {
  const now = deps.clock.now();
  const ttl = purpose === "email" ? EMAIL_RESET_TTL_SECONDS : ADMIN_RESET_TTL_SECONDS;
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  const token = newResetToken();
  await insertResetToken(trx, {
    id: deps.ids.uuid(),
    userId,
    tokenHash: await hashResetToken(token),
    purpose,
    expiresAt,
    now,
  });
  return { url: resetUrl(deps.config.publicUrl, token), expiresAt: expiresAt.toISOString() };
}

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
    const locked = await findCredentialsById(trx, user.id, true);
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
    await recordAudit(trx, {
      actorId: user.id,
      actorEmail: locked.email,
      action: "auth.password_reset_requested",
      entityType: "user",
      entityId: user.id,
      details: {},
    }, { id: deps.ids.uuid(), at: now });
  });
}

/** `POST /auth/reset-password/:userId` (users.admin): a link valid 1 hour. */
export async function createAdminResetLink(
  deps: Deps,
  actor: AuditActor,
  userId: string,
): Promise<ResetLink> {
  return await changeIdentity(deps, async (trx) => {
    const user = await findCredentialsById(trx, userId, true);
    if (!user) throw new NotFoundError(`User "${userId}" does not exist`);
    const link = await issueResetLink(trx, deps, userId, "admin");
    await recordAudit(trx, {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: "user.reset_link_created",
      entityType: "user",
      entityId: userId,
      details: { expiresAt: link.expiresAt },
    }, { id: deps.ids.uuid(), at: deps.clock.now() });
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
    const user = await findCredentialsById(trx, userId, true);
    await setPasswordHash(trx, userId, passwordHash, now);
    await revokeResetTokens(trx, userId, now);
    await recordAudit(trx, {
      actorId: userId,
      actorEmail: user?.email ?? null,
      action: "user.password_reset",
      entityType: "user",
      entityId: userId,
      details: {},
    }, { id: deps.ids.uuid(), at: now });
  });
}

/** `POST /auth/change-password`: a wrong current password → 400 `invalid_current_password`. */
export async function changePassword(
  deps: Deps,
  actor: { userId: string; email: string },
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const user = await findCredentialsById(deps.db, actor.userId);
  const ok = await verifySecret(input.currentPassword, user?.passwordHash, deps.config.bcryptCost);
  if (!user || !ok) {
    throw new BadInputError("invalid_current_password", "The current password is wrong");
  }
  const passwordHash = await hashSecret(input.newPassword, deps.config.bcryptCost);
  await changeIdentity(deps, async (trx) => {
    const now = deps.clock.now();
    await setPasswordHash(trx, actor.userId, passwordHash, now);
    await revokeResetTokens(trx, actor.userId, now);
    await recordAudit(trx, {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: "user.password_changed",
      entityType: "user",
      entityId: actor.userId,
      details: {},
    }, { id: deps.ids.uuid(), at: now });
  });
}
