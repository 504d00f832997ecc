/**
 * Where `ops login` keeps its token: `$OPS_CONFIG_DIR/credentials.json`, else
 * `~/.config/shop-ops/credentials.json` (mode 0600). `OPS_SERVER` and `OPS_TOKEN` override
 * what is stored. Commands that talk to a running server use `serverSession()`.
 */
import { UsageError } from "./_output.ts";

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
  if (!home) throw new UsageError("Cannot find a home directory: set OPS_CONFIG_DIR");
  const base = Deno.env.get("XDG_CONFIG_HOME") ?? `${home}/.config`;
  return `${base}/shop-ops`;
}

export function credentialsPath(): string {
  return `${configDir()}/credentials.json`;
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
    return JSON.parse(await Deno.readTextFile(credentialsPath())) as StoredCredentials;
  } catch {
    return undefined;
  }
}

/** The server URL and token to use: OPS_SERVER / OPS_TOKEN over the stored login. */
export async function serverSession(): Promise<{ server: string; token: string }> {
  const stored = await loadCredentials();
  const server = Deno.env.get("OPS_SERVER") ?? stored?.server;
  const token = Deno.env.get("OPS_TOKEN") ?? stored?.token;
  if (!server || !token) {
    throw new UsageError(
      "Not logged in: run `ops login --server URL --email E`, or set OPS_SERVER and OPS_TOKEN",
    );
  }
  return { server: server.replace(/\/+$/, ""), token };
}
