/** Applies and reverts the migrations listed in `migrations/mod.ts` with Kysely's migrator. */
import type { Kysely } from "kysely";
import { type MigrationResultSet, Migrator } from "kysely/migration";
import { migrations } from "../../migrations/mod.ts";
import type { Database } from "./database.ts";

function migratorFor(db: Kysely<Database>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
}

function unwrap(result: MigrationResultSet): MigrationResultSet {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(
      `Migration ${failed ?? ""} failed: ${
        result.error instanceof Error ? result.error.message : String(result.error)
      }`,
      { cause: result.error },
    );
  }
  return result;
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const result = unwrap(await migratorFor(db).migrateToLatest());
  return (result.results ?? []).map((r) => r.migrationName);
}

export async function migrateDown(db: Kysely<Database>): Promise<string[]> {
  const result = unwrap(await migratorFor(db).migrateDown());
  return (result.results ?? []).map((r) => r.migrationName);
}

export interface MigrationStatus {
  name: string;
  executedAt: Date | null;
}

export async function migrationStatus(db: Kysely<Database>): Promise<MigrationStatus[]> {
  const all = await migratorFor(db).getMigrations();
  return all.map((m) => ({ name: m.name, executedAt: m.executedAt ?? null }));
}
