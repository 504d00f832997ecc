/** Schemas of the backup routes (`GET /v1/backup`, `GET /v1/status`), shared with the CLI. */
import { z } from "zod";

export const backupQuery = z.strictObject({
  location: z.string().min(1).max(1000).optional().describe(
    "Where the caller saves the archive (recorded for `ops status`); default `streamed to <ip>`",
  ),
});

export const backupRunSchema = z.object({
  finishedAt: z.string(),
  location: z.string(),
  bytes: z.number().int(),
  tables: z.number().int(),
  rows: z.number().int(),
  files: z.number().int(),
  seconds: z.number(),
  schemaVersion: z.string(),
});

export const shopStatusSchema = z.object({
  engine: z.enum(["postgres", "embedded"]),
  databaseBytes: z.number().int(),
  schemaVersion: z.string().nullable(),
  pendingMigrations: z.number().int(),
  vault: z.object({ initialized: z.boolean(), locked: z.boolean() }),
  lastBackup: backupRunSchema.nullable(),
  outbox: z.object({ pending: z.number().int(), failed: z.number().int() }),
  version: z.string(),
}).meta({ id: "ShopStatus" });
