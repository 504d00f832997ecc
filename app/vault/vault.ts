/**
 * The vault's lifecycle (API §12 and the spec's state table): not initialized → initialize
 * (unlocked) → lock / unlock → change the master password (stays unlocked); a restart leaves it
 * locked (the data key lives in `deps.vaultKeys`, this process's memory). Every step is
 * audited (`vault.*`); nothing secret is ever logged, stored in plain text or answered. On
 * PostgreSQL an unlock or lock applies to every live server process (vault_peers.ts).
 */
import { ConflictError, LockedError } from "../../domain/errors.ts";
import {
  deriveKek,
  generateDataKey,
  KDF_ALGORITHM,
  kdfNeedsUpgrade,
  newKdfParams,
  unwrapDataKey,
  wrapDataKey,
} from "../../domain/vault/crypto.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import type { HeldKey } from "./keyring.ts";
import { checkMasterPassword } from "./master_password_check.ts";
import { shareLock, shareUnlock } from "./vault_peers.ts";
import {
  findVaultConfig,
  findVaultDataKeyId,
  insertVaultConfig,
  isVaultInitialized,
  replaceWrappedKey,
  type VaultConfigRecord,
} from "./vault_config_repo.ts";
import type { VaultStatus } from "./vault_schemas.ts";

function notInitialized(): LockedError {
  return new LockedError(
    "vault_not_initialized",
    "The vault is not initialized: set a master password first (POST /vault/initialize, or " +
      "`ops vault init`)",
  );
}

function locked(): LockedError {
  return new LockedError(
    "vault_locked",
    "The vault is locked: unlock it with the master password (POST /vault/unlock, or " +
      "`ops vault unlock`)",
  );
}

async function requireConfig(db: Db): Promise<VaultConfigRecord> {
  const config = await findVaultConfig(db);
  if (!config) throw notInitialized();
  return config;
}

export async function vaultStatus(deps: Pick<AppDeps, "db" | "vaultKeys">): Promise<VaultStatus> {
  if (deps.vaultKeys.current()) return { initialized: true, locked: false };
  return { initialized: await isVaultInitialized(deps.db), locked: true };
}

/** The data key of the unlocked vault; 423 `vault_locked` / `vault_not_initialized` otherwise. */
export async function requireUnlocked(deps: Pick<AppDeps, "db" | "vaultKeys">): Promise<HeldKey> {
  const held = deps.vaultKeys.current();
  if (held) return held;
  throw (await isVaultInitialized(deps.db)) ? locked() : notInitialized();
}

/**
 * Inside a transaction that writes sealed data: the held key must still be the vault's (a
 * vault initialized again, or a database restored, has another one). Otherwise the key is
 * dropped and the write refused, so nothing is ever sealed under a key the vault cannot open.
 */
export async function assertHeldKeyCurrent(
  deps: Pick<AppDeps, "vaultKeys">,
  db: Db,
  held: HeldKey,
): Promise<void> {
  if ((await findVaultDataKeyId(db)) === held.keyId) return;
  if (deps.vaultKeys.current() === held) deps.vaultKeys.forget();
  throw locked();
}

/** Sets the master password: a new data key, wrapped; the vault is unlocked afterwards. */
export async function initializeVault(
  deps: AppDeps,
  actor: Actor,
  masterPassword: string,
): Promise<VaultStatus> {
  const already = () =>
    new ConflictError(
      "already_initialized",
      "The vault is already initialized; change its master password instead",
    );
  if (await isVaultInitialized(deps.db)) throw already();
  const kdf = newKdfParams(deps.config.vaultKdfIterations);
  const kek = await deriveKek(masterPassword, kdf);
  const dataKey = await generateDataKey();
  const wrappedKey = await wrapDataKey(dataKey, kek);
  const held = (await unwrapDataKey(wrappedKey, kek))!;
  const dataKeyId = deps.ids.uuid();
  await withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    if (
      !(await insertVaultConfig(trx, { dataKeyId, kdf, wrappedKey, userId: actor.userId, now }))
    ) {
      throw already();
    }
    await audit(deps, trx, actor, {
      action: "vault.initialized",
      entityType: "vault",
      details: { kdf: KDF_ALGORITHM, iterations: kdf.iterations },
    });
  });
  deps.vaultKeys.hold(held, dataKeyId, deps.dbKind === "postgres" ? dataKey : undefined);
  await shareUnlock(deps);
  return { initialized: true, locked: false };
}

/**
 * Unlocks this process's vault with the master password (any vault.view holder). A vault
 * wrapped with fewer KDF iterations than configured is re-wrapped at the configured cost.
 */
export async function unlockVault(
  deps: AppDeps,
  actor: Actor,
  masterPassword: string,
): Promise<void> {
  const config = await requireConfig(deps.db);
  const opened = await checkMasterPassword(deps, actor, config, masterPassword, "unlock");
  await withTransaction(
    deps.db,
    (trx) => audit(deps, trx, actor, { action: "vault.unlocked", entityType: "vault" }),
  );
  // On PostgreSQL other server processes may need the key too (vault_peers.ts).
  const transferable = deps.dbKind === "postgres"
    ? await unwrapDataKey(config.wrappedKey, opened.kek, { extractable: true })
    : undefined;
  deps.vaultKeys.hold(opened.dataKey, config.dataKeyId, transferable);
  await shareUnlock(deps);
  if (kdfNeedsUpgrade(config.kdf, deps.config.vaultKdfIterations)) {
    try {
      await rewrap(deps, actor, config, opened.kek, masterPassword, false);
    } catch (error) {
      // The unlock stands; the next unlock tries the upgrade again.
      deps.logger.warn("vault KDF upgrade failed", {
        error: error instanceof Error ? error.name : String(error),
      });
    }
  }
}

/** Locks this process's vault (drops the data key first, then audits). */
export async function lockVault(deps: AppDeps, actor: Actor): Promise<void> {
  const wasUnlocked = deps.vaultKeys.current() !== undefined;
  deps.vaultKeys.forget();
  await shareLock(deps);
  await withTransaction(deps.db, async (trx) => {
    if (!(await isVaultInitialized(trx))) throw notInitialized();
    await audit(deps, trx, actor, {
      action: "vault.locked",
      entityType: "vault",
      details: { wasUnlocked },
    });
  });
}

/**
 * Changes the master password (vault.admin, unlocked): the current one is checked like an
 * unlock (same lockout), then the same data key is wrapped again under the new one with a
 * fresh salt. Entries are not touched and stay readable.
 */
export async function changeMasterPassword(
  deps: AppDeps,
  actor: Actor,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const config = await requireConfig(deps.db);
  if (!deps.vaultKeys.current()) throw locked();
  const opened = await checkMasterPassword(
    deps,
    actor,
    config,
    input.currentPassword,
    "change_master_password",
  );
  await rewrap(deps, actor, config, opened.kek, input.newPassword, true);
}

/** Wraps the data key again under `password` with fresh KDF settings (compare-and-swap). */
async function rewrap(
  deps: AppDeps,
  actor: Actor,
  config: VaultConfigRecord,
  currentKek: CryptoKey,
  password: string,
  passwordChanged: boolean,
): Promise<void> {
  const dataKey = await unwrapDataKey(config.wrappedKey, currentKek, { extractable: true });
  if (!dataKey) throw new Error("The vault's data key could not be unwrapped again");
  const kdf = newKdfParams(Math.max(deps.config.vaultKdfIterations, config.kdf.iterations));
  const wrappedKey = await wrapDataKey(dataKey, await deriveKek(password, kdf));
  await withTransaction(deps.db, async (trx) => {
    const replaced = await replaceWrappedKey(trx, {
      previous: config.wrappedKey,
      kdf,
      wrappedKey,
      now: deps.clock.now(),
      passwordChanged,
    });
    if (!replaced) {
      if (!passwordChanged) return; // an upgrade lost to a password change: nothing to do
      throw new ConflictError(
        "concurrent_update",
        "The master password was changed at the same time; check it and try again",
      );
    }
    await audit(deps, trx, actor, {
      action: passwordChanged ? "vault.master_password_changed" : "vault.kdf_upgraded",
      entityType: "vault",
      details: { kdf: KDF_ALGORITHM, iterations: kdf.iterations },
    });
  });
}
