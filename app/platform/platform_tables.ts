/**
 * Table types of the platform: store, locations, config, modules, idempotency keys, the
 * registry of server processes.
 */
import type { Generated, JSONColumnType } from "kysely";
import type { AddressColumn, Timestamp } from "../db/column_types.ts";

export interface StoreTable {
  id: Generated<number>;
  name: string;
  timezone: string;
  address: AddressColumn;
  phone: string | null;
  email: string | null;
  logo_file_id: string | null;
  updated_at: Timestamp;
}

export interface LocationTable {
  id: string;
  name: string;
  address: AddressColumn;
  phone: string | null;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AppConfigTable {
  id: Generated<number>;
  settings: JSONColumnType<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface ModuleTable {
  slug: string;
  name: string;
  description: string;
  licensed: boolean;
  enabled: boolean;
  core: boolean;
  sort_order: number;
  updated_at: Timestamp;
}

export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  response_content_type: string | null;
  created_at: Timestamp;
}

/** A live server process on a shared PostgreSQL (app/platform/cluster.ts). */
export interface ServerProcessTable {
  id: string;
  public_key: string;
  proof: string;
  started_at: Timestamp;
  seen_at: Timestamp;
  /** Where it listens, its pid and host (null: registered by an older release). */
  url: string | null;
  pid: number | null;
  host: string | null;
  vault_unlocked: Generated<boolean>;
}

export interface PlatformTables {
  store: StoreTable;
  locations: LocationTable;
  app_config: AppConfigTable;
  modules: ModuleTable;
  idempotency_keys: IdempotencyKeyTable;
  server_processes: ServerProcessTable;
}
