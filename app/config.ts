/**
 * Environment → typed configuration, validated once at start-up (API §16).
 * Everything else receives `AppConfig`; nothing below reads `Deno.env` directly.
 *
 * Where the settings come from, for the server (`deno task start`) and every `ops` command
 * alike ({@link loadShopConfig}): the process environment, then the shop's settings file
 * (`shop.env` in the working directory, or the file `SHOP_ENV_FILE` names; app/settings_file.ts),
 * then the defaults. A variable set in the environment wins over the file even when empty
 * (`DATABASE_URL= …` means "no DATABASE_URL" whatever the file says).
 */
import { z } from "zod";
import { parseSettings, readSettingsText } from "./settings_file.ts";

const booleanFlag = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) =>
  v === "true" || v === "1" || v === "yes"
);

/** `10/15m` → 10 requests per 15 minutes; `off` disables the per-IP auth limit. */
const rateLimitSpec = z.string().regex(/^(off|\d+\/\d+m)$/, "expected N/<minutes>m or off")
  .default("10/15m")
  .transform((v: string) => {
    if (v === "off") return null;
    const [count, minutes] = v.slice(0, -1).split("/").map(Number) as [number, number];
    return { max: count, windowSeconds: minutes * 60 };
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "expected a postgres:// URL").optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  FILES_DIR: z.string().min(1).optional(),
  APP_ENV: z.enum(["development", "production", "test"]).default("development"),
  JWT_SECRET: z.string().min(32, "must be at least 32 bytes").optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "expected smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).default("Shop <no-reply@localhost>"),
  AUTH_RATE_LIMIT: rateLimitSpec,
  TRUST_PROXY: booleanFlag.default(false),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  LOG_FORMAT: z.enum(["auto", "text", "json"]).default("auto"),
  MIGRATE_ON_START: booleanFlag.default(true),
  DEV_BYPASS: booleanFlag.default(false),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).optional(),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(8 * 60),
  VAULT_KDF_ITERATIONS: z.coerce.number().int().min(600_000).max(100_000_000).default(3_000_000),
});

export type LogLevel = "debug" | "info" | "warn" | "error";

/** `text`: readable lines; `json`: one JSON object per line; `auto`: text on a terminal. */
export type LogFormatSetting = "auto" | "text" | "json";

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  filesDir: string;
  env: "development" | "production" | "test";
  /**
   * Unset in development: the server's start-up (`startRuntime`, app/bootstrap.ts) fills it
   * with the secret kept in `DATA_DIR` (API §2).
   */
  jwtSecret: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  authRateLimit: { max: number; windowSeconds: number } | null;
  trustProxy: boolean;
  bcryptCost: number;
  logLevel: LogLevel;
  logFormat: LogFormatSetting;
  migrateOnStart: boolean;
  devBypass: boolean;
  dbPoolSize: number;
  dbStatementTimeoutMs: number;
  tokenTtlSeconds: number;
  /** PBKDF2-SHA256 iterations for new vault key wraps (API §12: at least 600,000). */
  vaultKdfIterations: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * PostgreSQL connections per process when DB_POOL_SIZE is not set: twice the cores, at least
 * 4 (the usual sizing for a database on a machine like this one). Queries beyond it wait in
 * the app's queue (app/db/connection_slots.ts); more connections than the database has cores
 * only moves that wait into PostgreSQL, where it costs context switches and tail latency.
 */
export function defaultPoolSize(cores = navigator.hardwareConcurrency || 2): number {
  return Math.max(4, 2 * cores);
}

/** The settings file of the shop, unless `SHOP_ENV_FILE` names another. */
export const SETTINGS_FILE = "shop.env";

/** The variables a settings file may set: the configuration's own. */
const SETTING_NAMES: ReadonlySet<string> = new Set(Object.keys(envSchema.shape));

/** The path of the settings file for this process environment (it need not exist). */
export function settingsFilePath(processEnv: Record<string, string | undefined>): string {
  return processEnv["SHOP_ENV_FILE"] || SETTINGS_FILE;
}

/**
 * The process environment over the settings file: the one place the server and `ops` take
 * their settings from. A malformed file, or a name in it that is no setting, is a
 * `ConfigError` naming the file and line.
 */
export function shopEnvironment(
  processEnv: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const path = settingsFilePath(processEnv);
  let text: string | undefined;
  try {
    text = readSettingsText(path);
  } catch (error) {
    throw new ConfigError(
      `Cannot read the settings file ${path}: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (text === undefined) return processEnv;
  const { values, problems } = parseSettings(text, SETTING_NAMES);
  if (problems.length > 0) {
    const lines = problems.map((p) => `  ${path}:${p.line}: ${p.message}`);
    throw new ConfigError(`Invalid settings file:\n${lines.join("\n")}`);
  }
  return { ...values, ...processEnv };
}

/** The configuration of the server and of `ops`: {@link shopEnvironment}, checked. */
export function loadShopConfig(
  processEnv: Record<string, string | undefined> = Deno.env.toObject(),
): AppConfig {
  return loadConfig(shopEnvironment(processEnv));
}

/** Parses and checks the environment; throws `ConfigError` with every problem listed. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.APP_ENV === "production") {
    if (!e.JWT_SECRET) {
      throw new ConfigError("JWT_SECRET (at least 32 bytes) is required when APP_ENV=production");
    }
    if (e.DEV_BYPASS) throw new ConfigError("DEV_BYPASS cannot be enabled when APP_ENV=production");
  }
  if (e.JWT_SECRET && new TextEncoder().encode(e.JWT_SECRET).length < 32) {
    throw new ConfigError("JWT_SECRET must be at least 32 bytes");
  }
  const publicHost = e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    filesDir: e.FILES_DIR ?? `${e.DATA_DIR.replace(/\/+$/, "")}/files`,
    env: e.APP_ENV,
    jwtSecret: e.JWT_SECRET,
    publicUrl: (e.PUBLIC_URL ?? `http://${publicHost}:${e.PORT}`).replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    authRateLimit: e.AUTH_RATE_LIMIT,
    trustProxy: e.TRUST_PROXY,
    bcryptCost: e.BCRYPT_COST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    migrateOnStart: e.MIGRATE_ON_START,
    devBypass: e.DEV_BYPASS,
    dbPoolSize: e.DB_POOL_SIZE ?? defaultPoolSize(),
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    tokenTtlSeconds: e.TOKEN_TTL_MINUTES * 60,
    vaultKdfIterations: e.VAULT_KDF_ITERATIONS,
  };
}
