/**
 * The one `Database` interface: the union of every feature's table types. Each feature
 * declares its tables in `app/<feature>/<feature>_tables.ts` and is added here.
 */
import type { Kysely, Transaction } from "kysely";
import type { PlatformTables } from "../platform/platform_tables.ts";
import type { AuthTables } from "../auth/auth_tables.ts";

export interface Database extends PlatformTables, AuthTables {}

/** A database handle or an open transaction: repositories accept either. */
export type Db = Kysely<Database> | Transaction<Database>;
