/**
 * Trying a master password against the per-user lockout (API §12): the one check behind
 * unlock and change-master-password, so a password cannot be guessed through either door.
 *
 * Each attempt is reserved before the password is tried: in a short transaction of its own the
 * user's counter row is locked, refused while five failures fill the window (429), else
 * counted as a failure. Only then does the KDF run, outside any transaction; a right password
 * gives its attempt back. So parallel attempts of one user are counted one after another and
 * at most five passwords are ever tried per window, however many arrive at once; the counter
 * lives in the database, so it holds across server processes and restarts.
 */
import { BadInputError, RateLimitedError } from "../../domain/errors.ts";
import { deriveKek, unwrapDataKey } from "../../domain/vault/crypto.ts";
import {
  releaseUnlockAttempt,
  reserveUnlockAttempt,
  type UnlockAttempt,
} from "../../domain/vault/unlock_attempts.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  lockUnlockFailures,
  saveUnlockFailures,
  type VaultConfigRecord,
} from "./vault_config_repo.ts";

type CheckDeps = Pick<AppDeps, "db" | "clock" | "ids">;

/** What a right password opens: the data key (non-extractable) and the key that wraps it. */
export interface OpenedVault {
  dataKey: CryptoKey;
  kek: CryptoKey;
}

function reserveAttempt(deps: CheckDeps, userId: string): Promise<UnlockAttempt> {
  return withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const attempt = reserveUnlockAttempt(await lockUnlockFailures(trx, userId, now), now);
    if (attempt.allowed) await saveUnlockFailures(trx, userId, attempt.state, now);
    return attempt;
  });
}

function releaseAttempt(deps: CheckDeps, userId: string): Promise<void> {
  return withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const state = await lockUnlockFailures(trx, userId, now);
    await saveUnlockFailures(trx, userId, releaseUnlockAttempt(state, now), now);
  });
}

function minutes(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Opens the vault with `password` for `actor` (a signed-in user): 429 `rate_limited` after
 * five wrong master passwords in 15 minutes, 400 `invalid_master_password` when wrong (counted
 * and audited as `vault.unlock_failed`).
 */
export async function checkMasterPassword(
  deps: CheckDeps,
  actor: Actor,
  config: VaultConfigRecord,
  password: string,
  during: "unlock" | "change_master_password",
): Promise<OpenedVault> {
  const userId = actingUserId(actor);
  const attempt = await reserveAttempt(deps, userId);
  if (!attempt.allowed) {
    throw new RateLimitedError(
      attempt.retryAfterSeconds,
      "Too many wrong master passwords: try again in " + minutes(attempt.retryAfterSeconds),
    );
  }
  const kek = await deriveKek(password, config.kdf);
  const dataKey = await unwrapDataKey(config.wrappedKey, kek);
  if (!dataKey) {
    await withTransaction(deps.db, (trx) =>
      audit(deps, trx, actor, {
        action: "vault.unlock_failed",
        entityType: "vault",
        details: { during, failuresInWindow: attempt.state.failures },
      }));
    throw new BadInputError("invalid_master_password", "The master password is wrong");
  }
  await releaseAttempt(deps, userId);
  return { dataKey, kek };
}
