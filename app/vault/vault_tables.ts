/** Table types of the vault (migration 20261125_110000_create_vault). */
import type { ColumnType } from "kysely";
import type { GeneratedText, Timestamp } from "../db/column_types.ts";
import type { KdfParams } from "../../domain/vault/crypto.ts";
import type { VaultLevel } from "../../domain/vault/access.ts";

/** The one row of an initialized vault: KDF settings and the wrapped data key. */
export interface VaultConfigTable {
  id: ColumnType<number, number | undefined, never>;
  /** Names the data key; unchanged when the master password changes. */
  data_key_id: string;
  kdf: ColumnType<KdfParams, unknown, unknown>;
  /** The data key wrapped by the master password's key (`v1.<iv>.<ciphertext>`). */
  wrapped_key: string;
  initialized_at: Timestamp;
  initialized_by: string | null;
  password_changed_at: Timestamp;
}

export interface VaultUnlockFailureTable {
  user_id: string;
  failures: number;
  window_started_at: Timestamp;
}

export interface VaultCategoryTable {
  id: string;
  name: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VaultCategoryPermissionTable {
  id: string;
  category_id: string;
  role_id: string | null;
  user_id: string | null;
  level: VaultLevel;
  created_at: Timestamp;
}

export interface VaultEntryTable {
  id: string;
  category_id: string;
  name: string;
  username: string | null;
  url: string | null;
  /** Sealed with the data key (never plain text). */
  secret_sealed: string;
  notes_sealed: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  search: GeneratedText;
}

export interface VaultTables {
  vault_config: VaultConfigTable;
  vault_unlock_failures: VaultUnlockFailureTable;
  vault_categories: VaultCategoryTable;
  vault_category_permissions: VaultCategoryPermissionTable;
  vault_entries: VaultEntryTable;
}
