/**
 * The one `Database` interface: the union of every feature's table types. Each feature
 * declares its tables in `app/<feature>/<feature>_tables.ts` and is added here.
 */
import type { Kysely, Transaction } from "kysely";
import type { PlatformTables } from "../platform/platform_tables.ts";
import type { AuthTables } from "../auth/auth_tables.ts";
import type { EmailTables } from "../email/email_tables.ts";
import type { AuditTables } from "../audit/audit_tables.ts";
import type { InventoryTables } from "../inventory/inventory_tables.ts";
import type { AccountsTables } from "../accounts/accounts_tables.ts";
import type { FilesTables } from "../files/files_tables.ts";
import type { LessonsTables } from "../lessons/lessons_tables.ts";
import type { PosTables } from "../pos/pos_tables.ts";
import type { RentalsTables } from "../rentals/rentals_tables.ts";
import type { RepairsTables } from "../repairs/repairs_tables.ts";
import type { StorageTables } from "../storage/storage_tables.ts";
import type { VaultTables } from "../vault/vault_tables.ts";
import type { BackupTables } from "../backup/backup_tables.ts";

export interface Database
  extends
    PlatformTables,
    AuthTables,
    InventoryTables,
    EmailTables,
    AuditTables,
    AccountsTables,
    FilesTables,
    LessonsTables,
    PosTables,
    RentalsTables,
    RepairsTables,
    StorageTables,
    VaultTables,
    BackupTables {}

/** A database handle or an open transaction: repositories accept either. */
export type Db = Kysely<Database> | Transaction<Database>;
