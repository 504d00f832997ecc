/**
 * The uploaded files under FILES_DIR as a backup sees them (app/files/storage.ts writes them:
 * keys like `member/<uuid>.png`, written to `*.partial` and renamed into place), and the
 * restore's replacement of the whole directory: files are written into a new directory beside
 * it, which is swapped in by two renames just before the database commits (and swapped back
 * when the commit fails).
 */
import { basename, dirname, join, relative, resolve } from "node:path";

/** Every stored file's key, sorted (half-written `*.partial` files are not stored yet). */
export async function listStoredFiles(root: string): Promise<string[]> {
  const base = resolve(root);
  const keys: string[] = [];
  async function walk(dir: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && !entry.name.endsWith(".partial")) {
        keys.push(relative(base, path).split("\\").join("/"));
      }
    }
  }
  await walk(base);
  return keys.sort();
}

export async function readStoredFile(
  root: string,
  key: string,
): Promise<ReadableStream<Uint8Array> | undefined> {
  try {
    return (await Deno.open(join(resolve(root), key), { read: true })).readable;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** A key from an archive, refused when it would leave the directory. */
export function safeKey(key: string): string {
  const parts = key.split("/");
  if (
    key.length === 0 || key.startsWith("/") ||
    parts.some((p) => p === "" || p === "." || p === ".." || p.includes("\\") || p.includes("\0"))
  ) throw new Error(`Refusing the file name "${key}" in the archive`);
  return key;
}

/** A new directory beside FILES_DIR that the restored files are written into. */
export class StagedFiles {
  readonly root: string;
  readonly staging: string;
  #file: Deno.FsFile | undefined;

  constructor(root: string, suffix: string) {
    this.root = resolve(root);
    this.staging = `${this.root}.restore-${suffix}`;
  }

  async begin(): Promise<void> {
    const parent = dirname(this.root);
    await Deno.mkdir(parent, { recursive: true });
    // What a killed restore left beside FILES_DIR: its staged files, or the replaced ones of a
    // restore killed after its commit.
    const prefix = `${basename(this.root)}.`;
    for await (const entry of Deno.readDir(parent)) {
      if (!entry.isDirectory || !entry.name.startsWith(prefix)) continue;
      const rest = entry.name.slice(prefix.length);
      if (/^(restore|replaced)-[0-9a-f]{8}$/.test(rest)) {
        await Deno.remove(join(parent, entry.name), { recursive: true }).catch(() => {});
      }
    }
    await Deno.mkdir(this.staging, { recursive: true, mode: 0o700 });
  }

  async open(key: string): Promise<void> {
    const path = join(this.staging, safeKey(key));
    await Deno.mkdir(dirname(path), { recursive: true });
    this.#file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  }

  async write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) at += await this.#file!.write(bytes.subarray(at));
  }

  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  /** Puts the staged directory in FILES_DIR's place; returns how to undo or finish that. */
  async swap(suffix: string): Promise<{ undo(): Promise<void>; finish(): Promise<void> }> {
    const old = `${this.root}.replaced-${suffix}`;
    const hadOld = await Deno.stat(this.root).then(() => true, () => false);
    if (hadOld) await Deno.rename(this.root, old);
    await Deno.rename(this.staging, this.root);
    return {
      undo: async () => {
        await Deno.rename(this.root, this.staging).catch(() => {});
        if (hadOld) await Deno.rename(old, this.root).catch(() => {});
        await this.discard();
      },
      finish: async () => {
        if (hadOld) await Deno.remove(old, { recursive: true }).catch(() => {});
      },
    };
  }

  async discard(): Promise<void> {
    this.close();
    await Deno.remove(this.staging, { recursive: true }).catch(() => {});
  }
}
