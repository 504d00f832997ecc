/**
 * Reset tokens: 32 random bytes (base64url) handed out once inside a link; only their SHA-256
 * is stored. An emailed token lives 4 hours, an admin link 1 hour.
 */
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import type { ResetLink } from "./auth_schemas.ts";
import { insertResetToken, type ResetPurpose } from "./reset_tokens_repo.ts";

const EMAIL_RESET_TTL_SECONDS = 4 * 60 * 60;
const ADMIN_RESET_TTL_SECONDS = 60 * 60;

function newResetToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function hashResetToken(token: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Stores a new token (its hash) for the user with `trx` and returns the link carrying it. */
export async function issueResetLink(
  trx: Db,
  deps: Pick<AppDeps, "clock" | "ids" | "config">,
  userId: string,
  purpose: ResetPurpose,
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
