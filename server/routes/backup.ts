/**
 * Backups through the server (API §16): `GET /v1/backup` streams the archive of `ops backup`
 * (the way to back up the embedded database while the server holds it), `GET /v1/status` is
 * `ops status`. Both need settings.admin and a full login; the backup needs every permission
 * besides, and is audited (app/backup/backup_runs.ts).
 */
import type { AppDeps } from "../../app/deps.ts";
import { backupQuery, shopStatusSchema } from "../../app/backup/backup_schemas.ts";
import { recordBackup, startAuditedBackup } from "../../app/backup/backup_runs.ts";
import { shopStatus } from "../../app/backup/status.ts";
import { ApiRouter } from "../route.ts";

export function backupRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/backup", "Backups").route({
    method: "get",
    path: "/",
    summary: "Stream a backup archive",
    description: "One consistent archive of the whole shop (every table read in one snapshot, " +
      "the uploaded files, the schema version, a SHA-256 per part; gzip), as `ops backup` " +
      "writes it and `ops restore` reads it. The server keeps serving meanwhile (on the " +
      "embedded database, writes wait while the tables are read). A failure after the first " +
      "byte ends the stream early: the archive is then truncated and `ops restore` refuses it. " +
      "The archive holds password hashes and the outbox's and vault's ciphertext: keep it " +
      "private. " +
      "Who may: the archive reads every domain, so the caller must hold every permission " +
      "(API §3, no privilege beyond one's own: in effect the Admin role). settings.admin " +
      "alone, or all permissions but one, → 403 `forbidden`, audited as `backup.denied` with " +
      "the missing permissions. Every download is audited with its actor before the first " +
      "byte (`backup.downloaded`: `location`, engine) and, once the last byte is out, as " +
      "`backup.completed` (tables, rows, files, bytes, seconds) under the same entity id " +
      "(entity type `backup`).",
    access: "settings.admin",
    fullLogin: true,
    query: backupQuery,
    responses: {
      200: {
        description: "The archive (gzip)",
        contentType: "application/octet-stream",
        headers: ["Content-Disposition", "Cache-Control"],
      },
    },
  }, async (_c, { query, actor }) => {
    const started = deps.clock.now().getTime();
    const location = query.location ?? "streamed by the server";
    const run = await startAuditedBackup(deps, actor, { action: "backup.downloaded", location });
    let bytes = 0;
    const counted = run.stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
        async flush() {
          const manifest = await run.done;
          const seconds = (deps.clock.now().getTime() - started) / 1000;
          await recordBackup(deps, actor, run.id, manifest, { location, bytes, seconds }).catch(
            (error) => deps.logger.error("could not record the backup", { error: String(error) }),
          );
        },
      }),
    );
    return new Response(counted, {
      status: 200,
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Disposition": 'attachment; filename="shop.backup"',
        "Cache-Control": "private, no-store",
      },
    });
  });
}

export function statusRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/status", "Backups").route({
    method: "get",
    path: "/",
    summary: "Operational status",
    description: "What `ops status` shows: database engine and size, schema version, vault " +
      "state, the last backup, the outbox's backlog.",
    access: "settings.admin",
    responses: { 200: { description: "The status", schema: shopStatusSchema } },
  }, async (c) => c.json(await shopStatus(deps)));
}

export const BACKUP_ROUTERS = [backupRoutes, statusRoutes];
