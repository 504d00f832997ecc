/**
 * Where `ops login` keeps its token: `$OPS_CONFIG_DIR/credentials.json`, else
 * `$XDG_CONFIG_HOME/shop-ops/` or `~/.config/shop-ops/credentials.json` (mode 0600).
 * `OPS_SERVER` and `OPS_TOKEN` override what is stored (a stored token is used only for the
 * server it was issued by).
 */
import { UsageError } from "./_errors.ts";

export interface StoredCredentials {
  server: string;
  email: string;
  token: string;
  expiresAt: string;
}

export function configDir(): string {
  const explicit = Deno.env.get("OPS_CONFIG_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  if (!xdg && !home) throw new UsageError("Cannot find a home directory: set OPS_CONFIG_DIR");
  return `${xdg ?? `${home}/.config`}/shop-ops`;
}

export function credentialsPath(): string {
  return `${configDir()}/credentials.json`;
}

export function normalizeServer(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

export async function saveCredentials(credentials: StoredCredentials): Promise<string> {
  const dir = configDir();
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = credentialsPath();
  await Deno.writeTextFile(path, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
  // `mode` applies only when the file is created: tighten an existing one too.
  await Deno.chmod(path, 0o600).catch(() => {});
  return path;
}

export async function loadCredentials(): Promise<StoredCredentials | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(credentialsPath()));
    return typeof value?.server === "string" && typeof value?.token === "string"
      ? value as StoredCredentials
      : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the stored login; returns it (undefined when there was none). */
export async function removeCredentials(): Promise<StoredCredentials | undefined> {
  const stored = await loadCredentials();
  await Deno.remove(credentialsPath()).catch(() => {});
  return stored;
}

export interface Session {
  /** The server to talk to (OPS_SERVER, else the stored login's), if any is known. */
  server?: string;
  token?: string;
  /** Where the token came from: `OPS_TOKEN` or the stored login. */
  source?: "env" | "stored";
  email?: string;
  expiresAt?: string;
}

/**
 * The server URL and token to use: OPS_SERVER / OPS_TOKEN over the stored login. With
 * `target` (the server a command must reach), the stored token only if it was issued there.
 */
export async function currentSession(target?: string): Promise<Session> {
  const stored = await loadCredentials();
  const envServer = Deno.env.get("OPS_SERVER");
  const server = target
    ? normalizeServer(target)
    : envServer
    ? normalizeServer(envServer)
    : stored?.server;
  const envToken = Deno.env.get("OPS_TOKEN");
  if (envToken) return { server, token: envToken, source: "env" };
  if (stored && stored.server === server) {
    return {
      server,
      token: stored.token,
      source: "stored",
      email: stored.email,
      expiresAt: stored.expiresAt,
    };
  }
  return { server };
}
