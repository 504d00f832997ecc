/**
 * The one way the app opens a postgres.js client for a DATABASE_URL (the pools, the probe,
 * the listener, the backup's COPY session).
 *
 * The URL may name a Unix-domain socket directory the way libpq does:
 * `postgres://shop@localhost/shop?host=/var/run/postgresql`. postgres.js would send an
 * unknown `host` query parameter to the server as a setting (which refuses it), so it is taken
 * out of the URL here and handed over as the `host` option, which postgres.js connects to as
 * `<dir>/.s.PGSQL.<port>`. With the server on the same machine, a socket skips the TCP stack
 * on both sides: writing a query to a loopback TCP socket was a quarter of the server's CPU
 * listing folders, and the storage bench answered 5–30% more requests a second over it
 * (README, "PostgreSQL").
 */
import postgres from "postgres";

export interface PostgresTarget {
  /** The URL without a socket `host` parameter. */
  url: string;
  /** The socket directory the URL names, if any. */
  socketDir?: string;
}

/** Splits a libpq-style socket directory (`?host=/path`) off a DATABASE_URL. */
export function postgresTarget(databaseUrl: string): PostgresTarget {
  const query = databaseUrl.indexOf("?");
  if (query < 0) return { url: databaseUrl };
  const params = new URLSearchParams(databaseUrl.slice(query + 1));
  const host = params.get("host");
  if (!host?.startsWith("/")) return { url: databaseUrl };
  params.delete("host");
  const rest = params.toString();
  return {
    url: databaseUrl.slice(0, query) + (rest ? `?${rest}` : ""),
    socketDir: host.replace(/\/+$/, "") || "/",
  };
}

/** Where a DATABASE_URL points, for messages: its socket directory, or its host and port. */
export function postgresLocation(databaseUrl: string): string {
  return postgresTarget(databaseUrl).socketDir ?? new URL(databaseUrl).host;
}

type ClientOptions = NonNullable<Parameters<typeof postgres>[1]>;

/** A postgres.js client for `databaseUrl` (over its socket when it names one). */
export function postgresClient(databaseUrl: string, options: ClientOptions): postgres.Sql {
  const { url, socketDir } = postgresTarget(databaseUrl);
  return postgres(url, socketDir ? { ...options, host: socketDir } : options);
}
