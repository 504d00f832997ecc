/**
 * Start-up shared by the server and the CLI: config → logger → database (reachable, or one
 * line naming the fix) → development signing secret → (migrations + seeds) → deps.
 */
import { type AppConfig, ConfigError, loadShopConfig } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/connect.ts";
import { errorCode } from "./db/db_errors.ts";
import { migrateToLatest } from "./db/migrate.ts";
import type { AppDeps } from "./deps.ts";
import { createDeps } from "./create_deps.ts";
import { createLogger, type Logger, resolveLogFormat } from "./logger.ts";
import { pingDatabase } from "./platform/health_repo.ts";
import { runSeeds } from "./seed.ts";
import { postgresLocation } from "./db/postgres_client.ts";

export interface Runtime {
  deps: AppDeps;
  /**
   * The server listens at `url`: the embedded data directory's lock names it, so a command
   * the lock refuses goes to this server (and names it).
   */
  announce(url: string): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  config?: AppConfig;
  logger?: Logger;
  migrate?: boolean;
  /**
   * Development without JWT_SECRET: create the signing secret in `DATA_DIR` when there is
   * none yet (the server does; other callers only use one that exists).
   */
  keepDevSecret?: boolean;
  /** `ops restore --force` only: open an embedded data directory the shop moved away from. */
  allowMoved?: boolean;
}

/** The server's logger: readable lines on a terminal, JSON otherwise (`LOG_FORMAT`). */
export function createServerLogger(config: AppConfig): Logger {
  const isTerminal = Deno.stdout.isTerminal();
  return createLogger(config.logLevel, undefined, undefined, {
    format: resolveLogFormat(config.logFormat, isTerminal),
    color: isTerminal && !Deno.noColor,
  });
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  let config = options.config ?? loadShopConfig();
  const logger = options.logger ?? createServerLogger(config);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    allowMoved: options.allowMoved,
  });
  try {
    if (config.databaseUrl) await assertReachable(handle, config.databaseUrl);
    if (!config.jwtSecret && config.env === "development") {
      const file = devSecretPath(config.dataDir);
      const secret = await readDevSecret(file) ??
        (options.keepDevSecret ? await createDevSecret(file) : undefined);
      if (secret) {
        config = { ...config, jwtSecret: secret };
        logger.warn(
          "JWT_SECRET is not set: signing with the development secret kept in DATA_DIR " +
            "(set JWT_SECRET in production)",
          { file },
        );
      }
    }
    if (options.migrate ?? config.migrateOnStart) {
      const applied = await migrateToLatest(handle.db);
      if (applied.length > 0) {
        logger.info("migrations applied", { count: applied.length, latest: applied.at(-1) });
      }
      await runSeeds(handle.db);
    }
  } catch (error) {
    // An unreachable PostgreSQL may never finish closing its pool: do not wait for it long.
    if (handle.kind === "postgres") await closeWithin(handle, 2000);
    else await handle.close();
    throw error;
  }
  const deps = createDeps({
    config,
    db: handle.db,
    dbKind: handle.kind,
    listener: handle.listener,
    logger,
  });
  return {
    deps,
    announce: async (url) => await handle.announce?.(url),
    async close() {
      await deps.cluster.leave();
      await handle.close();
    },
  };
}

async function closeWithin(handle: DatabaseHandle, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    handle.close().catch(() => {}),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

// ------------------------------------------------------------------ an unreachable PostgreSQL

/** How long start-up waits for PostgreSQL's first answer (API §16: exit within 20 s). */
const REACHABLE_TIMEOUT_MS = 15_000;

/**
 * PostgreSQL could not be used at start-up. The message is one line: the URL without its
 * password, the cause, the fix. (No `cause` is attached on purpose: drivers print the
 * message, not a translated connection error.)
 */
export class DatabaseStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseStartupError";
  }
}

/** `postgres://user:secret@host/db?password=x` → `postgres://user@host/db`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    parsed.searchParams.delete("password");
    return parsed.href;
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1@");
  }
}

async function assertReachable(handle: DatabaseHandle, url: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), REACHABLE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([
      pingDatabase(handle.db).then(() => "ok" as const),
      timeout,
    ]);
    if (outcome === "timeout") {
      throw new DatabaseStartupError(
        unreachableMessage(url, `no answer within ${REACHABLE_TIMEOUT_MS / 1000} s`, ""),
      );
    }
  } catch (error) {
    if (error instanceof DatabaseStartupError) throw error;
    const code = errorCode(error) ?? "";
    // The driver's own verdict (`DATABASE_UNREACHABLE`, app/db/db_errors.ts) has no cause.
    const verdict = code === "DATABASE_UNREACHABLE";
    const cause = verdict
      ? "no connection could be opened (no answer in time)"
      : innermostMessage(error);
    throw new DatabaseStartupError(unreachableMessage(url, cause, verdict ? "" : code));
  } finally {
    clearTimeout(timer);
  }
}

function innermostMessage(error: unknown): string {
  let current = error;
  let message = String(error);
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message.replace(/\s+/g, " ").trim();
}

const EMBEDDED_HINT = "unset DATABASE_URL to use the embedded database in DATA_DIR";

/** One line: where, why, and what to do about it. */
function unreachableMessage(url: string, cause: string, code: string): string {
  const where = redactDatabaseUrl(url);
  let host = "";
  let database = "";
  try {
    const parsed = new URL(url);
    host = postgresLocation(url);
    database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  } catch {
    // Unparsable: the message names the URL as given (without its password).
  }
  const fix = (() => {
    switch (code) {
      case "ECONNREFUSED":
        return `start PostgreSQL on ${host || "that host"}, or correct the host and port in ` +
          `DATABASE_URL (or ${EMBEDDED_HINT})`;
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return `correct the host name in DATABASE_URL (or ${EMBEDDED_HINT})`;
      case "28P01":
      case "28000":
        return "correct the user and password in DATABASE_URL";
      case "3D000":
        return `create the database (createdb ${database || "NAME"}) or correct its name in ` +
          "DATABASE_URL";
      case "57P03":
        return "PostgreSQL is starting up or shutting down: try again in a moment";
      default:
        return `check that PostgreSQL runs at ${host || "that address"} and accepts ` +
          `connections from this machine, or correct DATABASE_URL (or ${EMBEDDED_HINT})`;
    }
  })();
  const codeNote = code && !cause.includes(code) ? ` [${code}]` : "";
  return `Cannot connect to PostgreSQL at ${where}: ${cause}${codeNote}. Fix: ${fix}.`;
}

// ------------------------------------------------------------ the development signing secret

/** Where development keeps its signing secret (API §2). */
export function devSecretPath(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}/jwt_secret`;
}

async function readDevSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = (await Deno.readTextFile(file)).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new ConfigError(`Cannot read the development secret ${file}: ${describe(error)}`);
  }
  // Kept private even when it was copied in with a looser mode.
  const mode = (await Deno.stat(file).catch(() => undefined))?.mode;
  if (mode !== null && mode !== undefined && (mode & 0o077) !== 0) {
    await Deno.chmod(file, 0o600).catch(() => {});
  }
  if (new TextEncoder().encode(text).length < 32) {
    throw new ConfigError(
      `The development secret ${file} is shorter than 32 bytes: delete it (a new one is made ` +
        "at the next start; existing logins end) or set JWT_SECRET",
    );
  }
  return text;
}

/**
 * 32 random bytes (base64url), written to a temporary file of mode 0600 and linked into
 * place: a second process starting at the same moment reads the first one's secret, never a
 * half-written file.
 */
async function createDevSecret(file: string): Promise<string> {
  const dir = file.slice(0, file.lastIndexOf("/")) || ".";
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
  try {
    await Deno.mkdir(dir, { recursive: true });
    const temporary = await Deno.makeTempFile({ dir, prefix: ".jwt_secret-" });
    try {
      await Deno.chmod(temporary, 0o600).catch(() => {});
      await Deno.writeTextFile(temporary, `${secret}\n`);
      await Deno.link(temporary, file);
    } finally {
      await Deno.remove(temporary).catch(() => {});
    }
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      const existing = await readDevSecret(file);
      if (existing) return existing;
    }
    throw new ConfigError(
      `Cannot keep the development secret in ${file}: ${describe(error)} (set JWT_SECRET, ` +
        "or make DATA_DIR writable)",
    );
  }
  return secret;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
