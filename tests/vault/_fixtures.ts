/**
 * Shared set-up for the vault tests: users at each vault permission, the cheapest KDF the
 * rules allow (600,000 PBKDF2 iterations, ~80 ms an unlock), and factories over the HTTP API.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  type ApiResponse,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { suiteOf } from "../_helpers/suite.ts";

export const MASTER = "correct horse battery staple";

/** The test apps' environment: the minimum KDF cost keeps unlocks fast. */
export const VAULT_ENV = { VAULT_KDF_ITERATIONS: "600000" };

export interface VaultUsers {
  admin: TestUser;
  editor: TestUser;
  viewer: TestUser;
  outsider: TestUser;
}

export async function vaultUsers(t: TestApp): Promise<VaultUsers> {
  return {
    admin: await createUserWithPermissions(t, ["vault.admin", "settings.admin"]),
    editor: await createUserWithPermissions(t, ["vault.edit"]),
    viewer: await createUserWithPermissions(t, ["vault.view"]),
    outsider: await createUserWithPermissions(t, ["accounts.view"]),
  };
}

const suite = suiteOf(vaultUsers);

/** One app for the test file (vault KDF at its minimum) with the vault users. */
export function vaultSuite(
  ready: Parameters<typeof suite>[0],
  options: Parameters<typeof suite>[1] = {},
): void {
  suite(ready, { ...options, env: { ...VAULT_ENV, ...options.env } });
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** A request that must answer `expected`; its body. */
export async function call(
  t: TestApp,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
  expected = method === "POST" ? 201 : method === "DELETE" ? 204 : 200,
): Promise<Json> {
  const res = await api(t.app, method, path, { token: user.token, body });
  assertEquals(res.status, expected, `${method} ${path}: ${res.text}`);
  return res.body;
}

/** Asserts a problem answer with `status` and `code`. */
export function assertProblem(res: ApiResponse, status: number, code: string): void {
  assertEquals([res.status, res.body?.code], [status, code], res.text);
  assert(/problem\+json/.test(res.headers.get("Content-Type") ?? ""), res.text);
}

export async function initVault(t: TestApp, admin: TestUser, password = MASTER): Promise<void> {
  await call(t, admin, "POST", "/v1/vault/initialize", { masterPassword: password });
}

export async function unlock(t: TestApp, user: TestUser, password = MASTER): Promise<void> {
  await call(t, user, "POST", "/v1/vault/unlock", { masterPassword: password }, 204);
}

export async function lock(t: TestApp, admin: TestUser): Promise<void> {
  await call(t, admin, "POST", "/v1/vault/lock", undefined, 204);
}

let counter = 0;

export async function createCategory(
  t: TestApp,
  admin: TestUser,
  name = `Category ${++counter}`,
): Promise<{ id: string; name: string }> {
  return await call(t, admin, "POST", "/v1/vault/categories", { name });
}

export async function grant(
  t: TestApp,
  admin: TestUser,
  categoryId: string,
  subject: { userId: string } | { roleId: string },
  level: "view" | "edit" | "admin",
): Promise<{ id: string }> {
  return await call(t, admin, "POST", `/v1/vault/categories/${categoryId}/permissions`, {
    ...subject,
    level,
  });
}

export interface EntryInput {
  categoryId: string;
  name?: string;
  username?: string | null;
  url?: string | null;
  notes?: string | null;
  secret?: string;
}

export async function createEntry(
  t: TestApp,
  user: TestUser,
  input: EntryInput,
): Promise<Json> {
  return await call(t, user, "POST", "/v1/vault/entries", {
    name: `Entry ${++counter}`,
    secret: `secret-${crypto.randomUUID()}`,
    ...input,
  });
}

export async function reveal(t: TestApp, user: TestUser, id: string): Promise<string> {
  const res = await api(t.app, "POST", `/v1/vault/entries/${id}/reveal`, { token: user.token });
  assertEquals(res.status, 200, res.text);
  assertEquals(res.headers.get("Cache-Control"), "no-store");
  return res.body.secret;
}
