/**
 * `ops restore` refuses a PostgreSQL target that live server processes use, up front and
 * naming them. Its one transaction empties and reloads every table while they keep reading and
 * writing them: the two wait on each other's locks until PostgreSQL breaks the deadlock, and
 * the restore failed at random ("The record changed concurrently; retry"), after the archive
 * had been read and the replacement confirmed. On the embedded engine the data directory's
 * lock keeps a server and a restore apart already.
 *
 * A server that starts after this check and before the restore commits is not caught here;
 * the restore's locks then make it wait (or the restore fail as before): stop the servers,
 * restore, start them again (README "Backups").
 */
import { ConflictError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { listLiveServerProcesses, type LiveServerProcess } from "../platform/cluster_repo.ts";

export class TargetInUseError extends ConflictError {
  constructor(message: string) {
    super("target_in_use", message);
    this.name = "TargetInUseError";
  }
}

function describe(process: LiveServerProcess): string {
  const since = `up since ${process.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  if (process.pid === null) return `one whose pid is unknown (${since})`;
  return `pid ${process.pid}${process.host ? ` on ${process.host}` : ""} (${since})`;
}

/** Throws {@link TargetInUseError} while server processes use the PostgreSQL target. */
export async function refuseLiveServers(deps: Pick<AppDeps, "db" | "dbKind">): Promise<void> {
  if (deps.dbKind !== "postgres") return;
  const live = await listLiveServerProcesses(deps.db);
  if (live.length === 0) return;
  const which = live.length === 1 ? "a server process uses" : `${live.length} server processes use`;
  throw new TargetInUseError(
    `Cannot restore while ${which} the target database: ${live.map(describe).join(", ")}. ` +
      "Stop them first (the restore replaces every table they read and write), then start " +
      "them again once it is done; nothing was changed",
  );
}
