/**
 * SQL of the vault's configuration (one row once initialized) and of the wrong-master-password
 * counters per user.
 *
 * Locks: the configuration row is never locked; a change of the wrapped key is a
 * compare-and-swap on the wrapped key it replaces (`replaceWrappedKey`), so two changes of the
 * master password cannot both win. A counter row is locked `FOR UPDATE`
 * (`lockUnlockFailures`, which creates it first), so one user's attempts are reserved one
 * after another.
 */
import type { Transaction } from "kysely";
import type { KdfParams } from "../../domain/vault/crypto.ts";
import type { UnlockFailures } from "../../domain/vault/unlock_attempts.ts";
import type { Database, Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";
import { touchedAny } from "../db/rows.ts";

export interface VaultConfigRecord {
  dataKeyId: string;
  kdf: KdfParams;
  wrappedKey: string;
}

export async function findVaultConfig(db: Db): Promise<VaultConfigRecord | undefined> {
  const row = await db.selectFrom("vault_config").select(["data_key_id", "kdf", "wrapped_key"])
    .where("id", "=", 1).executeTakeFirst();
  return row && { dataKeyId: row.data_key_id, kdf: row.kdf, wrappedKey: row.wrapped_key };
}

/** The id of the vault's data key, or undefined before initialization. */
export async function findVaultDataKeyId(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("vault_config").select("data_key_id").where("id", "=", 1)
    .executeTakeFirst();
  return row?.data_key_id;
}

/** Whether the vault has been initialized. */
export async function isVaultInitialized(db: Db): Promise<boolean> {
  return (await findVaultConfig(db)) !== undefined;
}

/** Inserts the configuration; false when the vault was initialized already. */
export async function insertVaultConfig(db: Db, values: {
  dataKeyId: string;
  kdf: KdfParams;
  wrappedKey: string;
  userId: string | null;
  now: Date;
}): Promise<boolean> {
  const inserted = await db.insertInto("vault_config").values({
    id: 1,
    data_key_id: values.dataKeyId,
    kdf: jsonb(values.kdf),
    wrapped_key: values.wrappedKey,
    initialized_at: values.now,
    initialized_by: values.userId,
    password_changed_at: values.now,
  }).onConflict((oc) => oc.column("id").doNothing()).returning("id").executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Replaces the wrapped data key (and its KDF settings) only if `previous` is still the stored
 * one; false when another change got there first.
 */
export async function replaceWrappedKey(db: Db, values: {
  previous: string;
  kdf: KdfParams;
  wrappedKey: string;
  now: Date;
  passwordChanged: boolean;
}): Promise<boolean> {
  const result = await db.updateTable("vault_config").set({
    kdf: jsonb(values.kdf),
    wrapped_key: values.wrappedKey,
    ...(values.passwordChanged ? { password_changed_at: values.now } : {}),
  }).where("id", "=", 1).where("wrapped_key", "=", values.previous).executeTakeFirst();
  return touchedAny(result);
}

// ------------------------------------------------------------------ wrong master passwords

/**
 * Makes sure the user's counter row exists and locks it `FOR UPDATE` until the transaction
 * ends; its state, or undefined when nothing is counted.
 */
export async function lockUnlockFailures(
  trx: Transaction<Database>,
  userId: string,
  now: Date,
): Promise<UnlockFailures | undefined> {
  await trx.insertInto("vault_unlock_failures")
    .values({ user_id: userId, failures: 0, window_started_at: now })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  const row = await trx.selectFrom("vault_unlock_failures")
    .select(["failures", "window_started_at"])
    .where("user_id", "=", userId).forUpdate().executeTakeFirst();
  return row && row.failures > 0
    ? { failures: row.failures, windowStartedAt: row.window_started_at }
    : undefined;
}

/** Stores the state of a row locked by {@link lockUnlockFailures}; undefined clears it. */
export async function saveUnlockFailures(
  trx: Transaction<Database>,
  userId: string,
  state: UnlockFailures | undefined,
  now: Date,
): Promise<void> {
  await trx.updateTable("vault_unlock_failures").set({
    failures: state?.failures ?? 0,
    window_started_at: state?.windowStartedAt ?? now,
  }).where("user_id", "=", userId).execute();
}
