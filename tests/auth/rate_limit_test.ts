import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createTestApp } from "../_helpers/test_app.ts";
import { uniqueEmail } from "./_auth_helpers.ts";

/**
 * The limit counts in fixed windows aligned to the clock (a minute here): a test running
 * across a minute boundary would see its count start again. Each test's clock starts one
 * second into a window and moves with real time, so its few calls share one window.
 */
function clockInOneWindow() {
  const realStart = Date.now();
  const windowStart = Math.floor(realStart / 60_000) * 60_000 + 1_000;
  return { now: () => new Date(windowStart + (Date.now() - realStart)) };
}

Deno.test("the auth routes share a per-IP limit → 429 rate_limited with Retry-After", async () => {
  const t = await createTestApp({ env: { AUTH_RATE_LIMIT: "3/1m" }, clock: clockInOneWindow() });
  try {
    const calls = [
      () => api(t.app, "POST", "/v1/auth/login", { body: { email: "a@b.test", password: "x" } }),
      () => api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: "a@b.test" } }),
      () => api(t.app, "POST", "/v1/auth/pin-login", { body: { code: "12345678" } }),
    ];
    const first = await Promise.all(calls.map((call) => call()));
    assert(first.every((r) => r.status !== 429), "the first three are counted, not refused");
    for (
      const [method, path, body] of [
        ["POST", "/v1/auth/register", {
          email: uniqueEmail(),
          password: "pw123456",
          firstName: "A",
          lastName: "B",
        }],
        ["POST", "/v1/auth/reset-password", { token: "x", newPassword: "whatever1" }],
        ["POST", "/v1/auth/login", "not json"],
      ] as const
    ) {
      const res = await api(t.app, method, path, { body });
      assertEquals(res.status, 429, path);
      assertEquals(res.body.code, "rate_limited");
      const retryAfter = Number(res.headers.get("Retry-After"));
      assert(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    }
    // Authenticated auth routes and other routes are not limited.
    assertEquals((await api(t.app, "GET", "/v1/health")).status, 200);
    assertEquals((await api(t.app, "GET", "/v1/auth/me")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("X-Forwarded-For separates clients only with TRUST_PROXY=true", async () => {
  const trusting = await createTestApp({
    env: { AUTH_RATE_LIMIT: "2/1m", TRUST_PROXY: "true" },
    clock: clockInOneWindow(),
  });
  try {
    const login = (ip: string) =>
      api(trusting.app, "POST", "/v1/auth/login", {
        body: { email: "a@b.test", password: "x" },
        headers: { "X-Forwarded-For": `203.0.113.9, ${ip}` },
      });
    assertEquals((await login("10.0.0.1")).status, 401);
    assertEquals((await login("10.0.0.1")).status, 401);
    assertEquals((await login("10.0.0.1")).status, 429);
    assertEquals((await login("10.0.0.2")).status, 401, "another client has its own count");
  } finally {
    await trusting.close();
  }
  const plain = await createTestApp({
    env: { AUTH_RATE_LIMIT: "2/1m" },
    clock: clockInOneWindow(),
  });
  try {
    const login = (ip: string) =>
      api(plain.app, "POST", "/v1/auth/login", {
        body: { email: "a@b.test", password: "x" },
        headers: { "X-Forwarded-For": ip },
      });
    await login("10.0.0.1");
    await login("10.0.0.2");
    assertEquals((await login("10.0.0.3")).status, 429, "the header is ignored");
  } finally {
    await plain.close();
  }
});

Deno.test("parallel requests are counted exactly (atomic increment)", async () => {
  const t = await createTestApp({ env: { AUTH_RATE_LIMIT: "5/1m" }, clock: clockInOneWindow() });
  try {
    const results = await Promise.all(
      Array.from(
        { length: 12 },
        () => api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: "x@y.test" } }),
      ),
    );
    assertEquals(results.filter((r) => r.status === 202).length, 5);
    assertEquals(results.filter((r) => r.status === 429).length, 7);
  } finally {
    await t.close();
  }
});

Deno.test("AUTH_RATE_LIMIT=off lifts the per-IP limit", async () => {
  const t = await createTestApp({ env: { AUTH_RATE_LIMIT: "off" } });
  try {
    for (let i = 0; i < 15; i++) {
      const res = await api(t.app, "POST", "/v1/auth/forgot-password", {
        body: { email: "x@y.test" },
      });
      assertEquals(res.status, 202);
    }
  } finally {
    await t.close();
  }
});
