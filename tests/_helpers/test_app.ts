/**
 * A whole application over its own test database, plus helpers to call it through
 * `app.request()` and to make users holding given permissions.
 */
import type { Hono } from "hono";
import { type AppConfig, loadConfig } from "../../app/config.ts";
import type { AppDeps } from "../../app/deps.ts";
import { createDeps } from "../../app/create_deps.ts";
import type { Clock, Ids } from "../../app/ids.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import type { RepairTicketPort } from "../../app/pos/repair_ticket_port.ts";
import type { Permission } from "../../domain/auth/permissions.ts";
import type { AppEnv } from "../../server/context.ts";
import { createAppWithRoutes } from "../../server/app.ts";
import type { ApiRouter, RegisteredRoute } from "../../server/route.ts";
import { createTestDatabase, type TestDatabase } from "./test_db.ts";

export interface TestApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  routes: RegisteredRoute[];
  database: TestDatabase;
  logLines: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  ids?: Ids;
  /** A fake of the repairs feature's port to the POS. */
  repairTickets?: RepairTicketPort;
  /** Routers mounted besides the product's own (to test cross-cutting middleware). */
  extraRouters?: ReadonlyArray<(deps: AppDeps) => ApiRouter>;
}

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    APP_ENV: "test",
    BCRYPT_COST: "4",
    JWT_SECRET: "test-secret-that-is-at-least-32-bytes-long",
    DATA_DIR: Deno.makeTempDirSync({ prefix: "shop-test-" }),
    PUBLIC_URL: "http://shop.test",
    ...env,
  });
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const logger = createMemoryLogger();
  // The app's own connections beside the pool (the backup's COPY session) go to this database.
  const config = testConfig({
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const deps = createDeps({
    config,
    db: database.db,
    dbKind: database.kind,
    listener: database.listener,
    logger,
    clock: options.clock,
    ids: options.ids,
    repairTickets: options.repairTickets,
  });
  const { app, routes } = createAppWithRoutes(deps, options.extraRouters);
  return {
    app,
    deps,
    routes,
    database,
    logLines: logger.lines,
    async close() {
      await database.close();
      await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
    },
  };
}

// Test bodies are read loosely on purpose: each assertion states the shape it expects.
// deno-lint-ignore no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Runs `fn` on an app of its own (for tests that need an empty store), closed afterwards. */
export async function withFreshApp(
  options: TestAppOptions,
  fn: (t: TestApp) => Promise<void>,
): Promise<void> {
  const t = await createTestApp(options);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

/** Calls the app like a client would; JSON bodies are encoded and decoded. */
// deno-lint-ignore no-explicit-any
export async function api<T = any>(
  app: Hono<AppEnv>,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers["Content-Type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const response = await app.request(path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (/json/.test(response.headers.get("Content-Type") ?? "") && text !== "") {
    parsed = JSON.parse(text);
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export interface TestUser {
  id: string;
  email: string;
  employeeNumber: string;
  token: string;
}

let userCounter = 0;

/**
 * Inserts an active user holding exactly `permissions` (through a role made for it) and
 * signs an access token for it. Identity features are tested through their own routes;
 * this is for every other feature's tests.
 */
export async function createUserWithPermissions(
  t: TestApp,
  permissions: readonly Permission[],
  overrides: { email?: string; employeeNumber?: string } = {},
): Promise<TestUser> {
  const { deps } = t;
  const n = ++userCounter;
  const id = deps.ids.uuid();
  const email = overrides.email ?? `user${n}-${id.slice(-8)}@example.test`;
  // Counting down from 9999 keeps clear of numbers the app assigns from 0001 upwards.
  const employeeNumber = overrides.employeeNumber ?? String(10000 - n).padStart(4, "0");
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto("users").values({
      id,
      email,
      first_name: "Test",
      last_name: `User${n}`,
      employee_number: employeeNumber,
      created_at: now,
      updated_at: now,
    }).execute();
    if (permissions.length > 0) {
      const roleId = deps.ids.uuid();
      await trx.insertInto("roles").values({
        id: roleId,
        slug: `test-role-${roleId}`,
        name: `Test role ${n}`,
        created_at: now,
        updated_at: now,
      }).execute();
      await trx.insertInto("role_permissions")
        .values(permissions.map((permission) => ({ role_id: roleId, permission }))).execute();
      await trx.insertInto("user_roles").values({ user_id: id, role_id: roleId, created_at: now })
        .execute();
    }
  });
  const token = await deps.tokens.sign({ userId: id, type: "access", version: 0 }, 3600, now);
  return { id, email, employeeNumber, token };
}
