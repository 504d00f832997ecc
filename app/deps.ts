/**
 * Everything a use case needs, built once at start-up (or per test) by `createDeps`
 * (app/create_deps.ts) and passed explicitly: no container, no globals. Tests swap `clock`
 * and `ids` to make rules deterministic.
 *
 * Extension points: when a lower feature needs something from a higher one, the lower one
 * owns a narrow interface (`RepairTicketPort`, `FileOwners`) and `createDeps` fills it in
 * from the higher feature. Tests build their own deps with fakes.
 */
import type { Kysely } from "kysely";
import type { AppConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { Clock, Ids } from "./ids.ts";
import type { Logger } from "./logger.ts";
import type { TokenSigner } from "./auth/tokens.ts";
import type { ModuleCache } from "./platform/module_cache.ts";
import type { ActorCache } from "./auth/actor_cache.ts";
import type { FileStorage } from "./files/storage.ts";
import type { FileOwners } from "./files/file_owners.ts";
import type { RepairTicketPort } from "./pos/repair_ticket_port.ts";
import type { RentalPort } from "./pos/rental_port.ts";
import type { NameCopies } from "./accounts/name_copies.ts";
import type { OutboxCipher } from "./email/outbox_cipher.ts";
import type { VaultKeyring } from "./vault/keyring.ts";
import type { Cluster } from "./platform/cluster.ts";
import type { StoreZoneCache } from "./platform/store_zone.ts";
import type { RuntimeConfigCache } from "./platform/runtime_config.ts";
import type { NotificationListener } from "./db/connect.ts";

export interface AppDeps {
  config: AppConfig;
  db: Kysely<Database>;
  dbKind: "postgres" | "embedded";
  clock: Clock;
  ids: Ids;
  logger: Logger;
  tokens: TokenSigner;
  modules: ModuleCache;
  /** Users' active flags, token versions and permissions (see app/auth/actor_cache.ts). */
  actors: ActorCache;
  /** The other server processes on the same PostgreSQL (app/platform/cluster.ts). */
  cluster: Cluster;
  /** The store's time zone, cached (app/platform/store.ts). */
  storeZone: StoreZoneCache;
  /** The runtime config (API §4), cached per process (app/platform/runtime_config.ts). */
  runtimeConfig: RuntimeConfigCache;
  /** Encrypts outbox bodies (its key, derived once, is its own state). */
  outboxCipher: OutboxCipher;
  /** Bytes of uploaded files (a local directory under FILES_DIR by default). */
  files: FileStorage;
  /** Which records files can belong to (filled in by the features that own such records). */
  fileOwners: FileOwners;
  /** Repair tickets as the POS sees them; undefined until a repairs feature provides it. */
  repairTickets: RepairTicketPort | undefined;
  /** Rentals as the POS sees them (charges paid at the register, buyouts). */
  rentals: RentalPort | undefined;
  /** The features keeping copies of account and member names, told of renames. */
  nameCopies: NameCopies;
  /** The unlocked vault's data key, in this process's memory only (empty at start: locked). */
  vaultKeys: VaultKeyring;
  startedAt: Date;
  version: string;
}

export const APP_VERSION = "0.1.0";

export interface DepsInput {
  config: AppConfig;
  db: Kysely<Database>;
  dbKind: "postgres" | "embedded";
  /** PostgreSQL: the database handle's notifications (absent: this process is alone). */
  listener?: NotificationListener;
  logger: Logger;
  clock?: Clock;
  ids?: Ids;
  files?: FileStorage;
  /** Replaces the repairs feature's port (tests use a fake). */
  repairTickets?: RepairTicketPort;
}
