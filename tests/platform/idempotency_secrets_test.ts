/**
 * Secrets at rest in the Idempotency-Key replay table (issue 15 item 5): public routes and
 * responses that carry a credential (`Cache-Control: no-store`: access tokens, reset links) are
 * never stored for replay, and what is stored holds no secret (a file's signed URL is signed
 * again on replay). After each such call the whole table is dumped and searched.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";

const PASSWORD = "correct horse battery";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72]);

let t: TestApp;
let admin: TestUser;

withTestApp(async (app) => {
  t = app;
  admin = await createUserWithPermissions(t, PERMISSIONS.map((p) => p.id));
}, { env: { AUTH_RATE_LIMIT: "off" } });

/** Every row of the replay table, as text. */
async function dumpTable(): Promise<string> {
  const rows = await t.deps.db.selectFrom("idempotency_keys").selectAll().execute();
  return JSON.stringify(rows);
}

async function assertNotStored(key: string, secrets: string[], what: string) {
  const dump = await dumpTable();
  for (const secret of secrets) {
    assert(secret.length >= 16, `${what}: a real secret to look for`);
    assert(!dump.includes(secret), `${what}: the replay table holds a secret`);
  }
  assert(!dump.includes(`"${key}"`), `${what}: the key "${key}" was stored`);
}

/** A staff user with a password and a PIN, made through the API. */
async function staffUser(): Promise<{ id: string; email: string; employeeNumber: string }> {
  const email = `staff-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const created = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email, firstName: "Sta", lastName: "Ff", password: PASSWORD },
  });
  assertEquals(created.status, 201, created.text);
  return { id: created.body.user.id, email, employeeNumber: created.body.user.employeeNumber };
}

Deno.test("login and pin-login with an Idempotency-Key (and a bearer token) store nothing", async () => {
  const user = await staffUser();
  const headers = { "Idempotency-Key": "login-key", Authorization: `Bearer ${admin.token}` };
  const login = await api(t.app, "POST", "/v1/auth/login", {
    headers,
    body: { email: user.email, password: PASSWORD },
  });
  assertEquals(login.status, 200, login.text);
  await assertNotStored("login-key", [login.body.accessToken], "POST /auth/login");
  const again = await api(t.app, "POST", "/v1/auth/login", {
    headers,
    body: { email: user.email, password: PASSWORD },
  });
  assertEquals(again.headers.get("Idempotent-Replayed"), null, "a new login, not a replay");

  const setPin = await api(t.app, "POST", "/v1/auth/set-pin", {
    token: login.body.accessToken,
    body: { pin: "8642" },
  });
  assertEquals(setPin.status, 204);
  const pin = await api(t.app, "POST", "/v1/auth/pin-login", {
    headers: { ...headers, "Idempotency-Key": "pin-login-key" },
    body: { code: `${user.employeeNumber}8642` },
  });
  assertEquals(pin.status, 200, pin.text);
  await assertNotStored("pin-login-key", [pin.body.accessToken], "POST /auth/pin-login");
});

Deno.test("an admin reset link and a user created without a password are not stored", async () => {
  const user = await staffUser();
  const link = await api(t.app, "POST", `/v1/auth/reset-password/${user.id}`, {
    token: admin.token,
    headers: { "Idempotency-Key": "reset-link-key" },
  });
  assertEquals(link.status, 201, link.text);
  const token = new URL(link.body.url).searchParams.get("token")!;
  await assertNotStored("reset-link-key", [token], "POST /auth/reset-password/:userId");

  const created = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    headers: { "Idempotency-Key": "new-user-key" },
    body: {
      email: `linked-${crypto.randomUUID().slice(0, 8)}@example.test`,
      firstName: "N",
      lastName: "U",
    },
  });
  assertEquals(created.status, 201, created.text);
  const resetToken = new URL(created.body.resetLink.url).searchParams.get("token")!;
  await assertNotStored("new-user-key", [resetToken], "POST /users without a password");
});

Deno.test("every public POST route ignores the key, even with a valid bearer token", async () => {
  const publicPosts = t.routes.filter((r) =>
    r.spec.access === "public" && r.spec.method === "post"
  );
  assert(publicPosts.length >= 5, "login, register, forgot/reset password, pin-login");
  for (const [i, route] of publicPosts.entries()) {
    const key = `public-${i}`;
    const res = await api(t.app, "POST", route.fullPath, {
      headers: { "Idempotency-Key": key, Authorization: `Bearer ${admin.token}` },
      body: {},
    });
    assert(res.status < 500, `${route.fullPath}: ${res.status}`);
    await assertNotStored(key, [], `POST ${route.fullPath}`);
  }
});

Deno.test("an upload is replayed with a freshly signed url; the stored copy holds no signature", async () => {
  const member = await api(t.app, "POST", "/v1/accounts", {
    token: admin.token,
    body: { primaryContact: { firstName: "File", lastName: "Owner" } },
  });
  assertEquals(member.status, 201, member.text);
  const form = new FormData();
  form.set("file", new Blob([PNG]), "x.png");
  form.set("entityType", "member");
  form.set("entityId", member.body.primaryMemberId);
  const encoded = new Response(form);
  const contentType = encoded.headers.get("Content-Type")!;
  const body = new Uint8Array(await encoded.arrayBuffer());
  const send = () =>
    t.app.request("/v1/files", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${admin.token}`,
        "Content-Type": contentType,
        "Idempotency-Key": "upload-secret-key",
      },
      body,
    });
  const first = await send();
  assertEquals(first.status, 201);
  const stored = await first.json();
  const signature = new URL(stored.url).searchParams.get("signature")!;
  const dump = await dumpTable();
  assert(dump.includes("upload-secret-key"), "the upload is stored for replay");
  assert(!dump.includes(signature), "without its signature");
  const replay = await send();
  assertEquals(replay.status, 201);
  assertEquals(replay.headers.get("Idempotent-Replayed"), "true");
  const replayed = await replay.json();
  assertEquals({ ...replayed, url: undefined }, { ...stored, url: undefined });
  const served = await t.app.request(new URL(replayed.url).pathname + new URL(replayed.url).search);
  assertEquals(served.status, 200, "the replayed url serves the file");
  assertEquals(new Uint8Array(await served.arrayBuffer()), PNG);
});
