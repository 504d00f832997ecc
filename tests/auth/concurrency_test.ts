/** Invariants of identity under parallel requests (meaningful on PostgreSQL). */
import { assertEquals } from "../_helpers/assert.ts";
import { api, createTestApp, createUserWithPermissions } from "../_helpers/test_app.ts";
import { ALL_PERMISSIONS, openRegistration, PASSWORD, uniqueEmail } from "./_auth_helpers.ts";

const OFF = { env: { AUTH_RATE_LIMIT: "off" } };

Deno.test("parallel first registrations make exactly one Admin", async () => {
  const t = await createTestApp(OFF);
  try {
    // Open, so the seven after the first are let in too (closed by default: API §2).
    await openRegistration(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api(t.app, "POST", "/v1/auth/register", {
          body: { email: uniqueEmail("race"), password: PASSWORD, firstName: "R", lastName: "C" },
        })),
    );
    assertEquals(results.map((r) => r.status), Array(8).fill(201));
    const admins = results.filter((r) =>
      r.body.user.roles.some((role: { slug: string }) => role.slug === "admin")
    );
    assertEquals(admins.length, 1);
    const numbers = results.map((r) => r.body.user.employeeNumber).sort();
    assertEquals(numbers, ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008"]);
  } finally {
    await t.close();
  }
});

Deno.test("parallel registrations with one email: exactly one 201, the rest 409 duplicate", async () => {
  const t = await createTestApp(OFF);
  try {
    await openRegistration(t);
    const email = uniqueEmail("same");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api(t.app, "POST", "/v1/auth/register", {
          body: {
            email: i % 2 ? email : email.toUpperCase(),
            password: PASSWORD,
            firstName: "S",
            lastName: "E",
          },
        })),
    );
    const statuses = results.map((r) => r.status).sort();
    assertEquals(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) assertEquals(r.body.code, "duplicate");
  } finally {
    await t.close();
  }
});

Deno.test("parallel staff creation assigns distinct employee numbers; parallel role assignment once", async () => {
  const t = await createTestApp(OFF);
  try {
    // Every permission: it may grant any role (API §3).
    const admin = await createUserWithPermissions(t, ALL_PERMISSIONS);
    const created = await Promise.all(
      Array.from({ length: 6 }, () =>
        api(t.app, "POST", "/v1/users", {
          token: admin.token,
          body: { email: uniqueEmail("staff"), firstName: "P", lastName: "S" },
        })),
    );
    assertEquals(created.map((r) => r.status), Array(6).fill(201));
    assertEquals(new Set(created.map((r) => r.body.user.employeeNumber)).size, 6);

    const roles = await api(t.app, "GET", "/v1/roles/all", { token: admin.token });
    const viewer = roles.body.data.find((r: { slug: string }) => r.slug === "viewer");
    const userId = created[0]!.body.user.id;
    const assigned = await Promise.all(
      Array.from({ length: 5 }, () =>
        api(t.app, "POST", `/v1/users/${userId}/roles`, {
          token: admin.token,
          body: { roleId: viewer.id },
        })),
    );
    assertEquals(assigned.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
  } finally {
    await t.close();
  }
});

Deno.test("parallel resets with one token: exactly one succeeds", async () => {
  const t = await createTestApp(OFF);
  try {
    const admin = await createUserWithPermissions(t, ["users.admin"]);
    const user = await api(t.app, "POST", "/v1/users", {
      token: admin.token,
      body: { email: uniqueEmail("reset"), firstName: "R", lastName: "T" },
    });
    const token = new URL(user.body.resetLink.url).searchParams.get("token");
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api(t.app, "POST", "/v1/auth/reset-password", {
          body: { token, newPassword: `parallel password ${i}` },
        })),
    );
    assertEquals(results.map((r) => r.status).sort(), [204, 400, 400, 400, 400]);
  } finally {
    await t.close();
  }
});

Deno.test("parallel wrong PINs count every failure: the sixth attempt is locked", async () => {
  const t = await createTestApp(OFF);
  try {
    const email = uniqueEmail("pin");
    const reg = await api(t.app, "POST", "/v1/auth/register", {
      body: { email, password: PASSWORD, firstName: "P", lastName: "N" },
    });
    const login = await api(t.app, "POST", "/v1/auth/login", {
      body: { email, password: PASSWORD },
    });
    await api(t.app, "POST", "/v1/auth/set-pin", {
      token: login.body.accessToken,
      body: { pin: "5555" },
    });
    const n = reg.body.user.employeeNumber;
    const wrong = await Promise.all(
      Array.from(
        { length: 5 },
        (_, i) => api(t.app, "POST", "/v1/auth/pin-login", { body: { code: `${n}000${i}` } }),
      ),
    );
    assertEquals(wrong.map((r) => r.status), Array(5).fill(401));
    const right = await api(t.app, "POST", "/v1/auth/pin-login", { body: { code: `${n}5555` } });
    assertEquals(right.status, 429);
  } finally {
    await t.close();
  }
});
