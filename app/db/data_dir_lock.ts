/**
 * One process at a time in an embedded data directory. The lock file holds the owner's pid;
 * a lock whose pid is no longer a running process (the owner was killed) is taken over.
 */

export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `The data directory "${dataDir}" is in use by another process (pid ${pid}). ` +
        `Stop that process, or point DATA_DIR elsewhere, or use DATABASE_URL.`,
    );
    this.name = "DataDirLockedError";
    this.pid = pid;
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === Deno.pid) return true;
  try {
    Deno.statSync(`/proc/${pid}`);
    // A recycled pid of an unrelated program does not count as the holder.
    const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    return cmdline.includes("deno");
  } catch {
    return false;
  }
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const path = `${dataDir.replace(/\/+$/, "")}/server.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await Deno.open(path, { write: true, createNew: true });
      await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
      file.close();
      return {
        async release() {
          try {
            const owner = Number((await Deno.readTextFile(path)).trim());
            if (owner === Deno.pid) await Deno.remove(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      const holder = Number((await Deno.readTextFile(path).catch(() => "")).trim());
      if (isRunning(holder)) throw new DataDirLockedError(dataDir, holder);
      // Stale: its owner died without releasing it.
      await Deno.remove(path).catch(() => {});
    }
  }
  throw new Error(`Could not acquire the lock on "${dataDir}"`);
}
