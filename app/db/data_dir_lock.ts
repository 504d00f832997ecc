/**
 * One process at a time in an embedded data directory. The lock file holds the owner's pid
 * and, once a server listens, the URL it listens at (`announce`), so a command refused by the
 * lock knows where that server is; a lock whose pid is no longer a running process (the owner
 * was killed) is taken over.
 */

export interface DataDirLock {
  /** Records where the owner (a server) listens, for the commands the lock refuses. */
  announce(url: string): Promise<void>;
  release(): Promise<void>;
}

/** Who holds a data directory: its pid and, when it is a listening server, its URL. */
export interface DataDirHolder {
  pid: number;
  url: string | undefined;
}

export class DataDirLockedError extends Error {
  readonly pid: number;
  readonly url: string | undefined;
  constructor(dataDir: string, holder: DataDirHolder) {
    const who = holder.url ? `pid ${holder.pid}, a server at ${holder.url}` : `pid ${holder.pid}`;
    super(
      `The data directory "${dataDir}" is in use by another process (${who}). ` +
        `Stop that process, or point DATA_DIR elsewhere, or use DATABASE_URL.`,
    );
    this.name = "DataDirLockedError";
    this.pid = holder.pid;
    this.url = holder.url;
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

function lockPath(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}/server.lock`;
}

/** `pid\n[url\n]` → the holder it names (pid NaN when the file is damaged). */
function parseLock(text: string): DataDirHolder {
  const [pid, url] = text.split("\n").map((line) => line.trim());
  return { pid: Number(pid), url: /^https?:\/\//.test(url ?? "") ? url : undefined };
}

/** The running process that holds `dataDir`, if any (a stale lock names nobody). */
export async function findDataDirHolder(dataDir: string): Promise<DataDirHolder | undefined> {
  const text = await Deno.readTextFile(lockPath(dataDir)).catch(() => undefined);
  if (text === undefined) return undefined;
  const holder = parseLock(text);
  return isRunning(holder.pid) ? holder : undefined;
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await Deno.open(path, { write: true, createNew: true });
      await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
      file.close();
      const owned = async () =>
        parseLock(await Deno.readTextFile(path).catch(() => "")).pid === Deno.pid;
      return {
        async announce(url) {
          if (!(await owned())) return;
          // Renamed over the lock: a reader sees the pid alone or the pid and the URL.
          const temporary = `${path}.${Deno.pid}`;
          await Deno.writeTextFile(temporary, `${Deno.pid}\n${url}\n`);
          await Deno.rename(temporary, path);
        },
        async release() {
          try {
            if (await owned()) await Deno.remove(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      const holder = parseLock(await Deno.readTextFile(path).catch(() => ""));
      if (isRunning(holder.pid)) throw new DataDirLockedError(dataDir, holder);
      // Stale: its owner died without releasing it.
      await Deno.remove(path).catch(() => {});
    }
  }
  throw new Error(`Could not acquire the lock on "${dataDir}"`);
}
