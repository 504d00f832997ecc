/**
 * Where a business command runs (API §16), decided here once for every command:
 * 1. `OPS_SERVER` is set → through that server's API (token: `OPS_TOKEN`, else the stored
 *    login when it was made for that server);
 * 2. otherwise on the database directly (`DATABASE_URL`, or the embedded one in `DATA_DIR`);
 * 3. when a running server holds the embedded database → through that server's API with the
 *    stored login (or `OPS_TOKEN`), at the URL the server wrote into the database's lock.
 * Without a token the command fails with one line naming `ops login` — except where a command
 * has an anonymous way (`ops user create` registers the very first user).
 */
import type { AppDeps } from "../app/deps.ts";
import { ApiClient } from "./_api.ts";
import { currentSession, loadCredentials, normalizeServer, type Session } from "./_credentials.ts";
import { CliError } from "./_errors.ts";
import { cliConfig, DatabaseBusyError, embeddedHolder, withRuntime } from "./_runtime.ts";

export interface Ways<T> {
  /** On the database directly, through the use cases (actor: the system). */
  direct(deps: AppDeps): Promise<T>;
  /** Through the server's API with the session's token. */
  server(api: ApiClient): Promise<T>;
  /** Through the server's API without any token (when the command has such a way). */
  anonymous?(api: ApiClient): Promise<T>;
}

/**
 * The server a command that goes through one talks to: `OPS_SERVER`; else the server holding
 * the embedded database (its lock names its URL); else the stored login's; else this
 * machine's as configured (PUBLIC_URL, or HOST:PORT).
 */
export async function targetServer(): Promise<string> {
  const named = Deno.env.get("OPS_SERVER");
  if (named) return normalizeServer(named);
  const holder = await embeddedHolder();
  if (holder?.url) return holder.url;
  return (await loadCredentials())?.server ?? cliConfig().publicUrl;
}

/** {@link targetServer} with the token for it (OPS_TOKEN, or the login stored for it). */
export async function targetSession(): Promise<Session & { server: string }> {
  const server = await targetServer();
  return { ...(await currentSession(server)), server };
}

/** Runs the command where the rule above says. */
export async function run<T>(ways: Ways<T>): Promise<T> {
  if (Deno.env.get("OPS_SERVER")) return await throughServer(ways);
  try {
    return await withRuntime({}, ways.direct);
  } catch (error) {
    if (error instanceof DatabaseBusyError) return await throughServer(ways, error);
    throw error;
  }
}

async function throughServer<T>(ways: Ways<T>, busy?: DatabaseBusyError): Promise<T> {
  const session = busy?.url ? await currentSession(busy.url) : await targetSession();
  const server = session.server ?? cliConfig().publicUrl;
  if (!session.token) {
    if (ways.anonymous) return await ways.anonymous(new ApiClient(server));
    const held = busy
      ? `A running server (pid ${busy.pid}) holds the embedded database in DATA_DIR ` +
        `"${busy.dataDir}", so this command goes through its API, but you are not logged in`
      : `Not logged in to ${server}`;
    throw new CliError(
      `${held}: run \`ops login --server ${server} --email E\` (or set OPS_SERVER and ` +
        "OPS_TOKEN)" + (busy ? ", or stop the server to work on the database directly" : ""),
    );
  }
  return await ways.server(new ApiClient(server, session));
}

/** `GET /store`'s time zone through the API (for showing times in store time). */
export async function storeTimezoneVia(api: ApiClient): Promise<string> {
  const store = await api.request<{ timezone?: string }>("GET", "/store").catch(() => undefined);
  return store?.timezone ?? "UTC";
}
