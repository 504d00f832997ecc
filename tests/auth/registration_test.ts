/**
 * Self-registration (API §2/§4, issue 15 item 6): while no user exists it always works and the
 * first user becomes Admin; afterwards only while the owner has opened it (config
 * `registrationOpen`, default false), else 403 `registration_closed`.
 */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  withFreshApp,
} from "../_helpers/test_app.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { updateRuntimeConfig } from "../../app/platform/settings.ts";
import { PASSWORD, uniqueEmail } from "./_auth_helpers.ts";

const OFF = { env: { AUTH_RATE_LIMIT: "off" } };

function withApp(fn: (t: TestApp) => Promise<void>): Promise<void> {
  return withFreshApp(OFF, fn);
}

function register(t: TestApp, email = uniqueEmail("reg")) {
  return api(t.app, "POST", "/v1/auth/register", {
    body: { email, password: PASSWORD, firstName: "Re", lastName: "Gister" },
  });
}

Deno.test("registration closes after the first user until the owner opens it", async () => {
  await withApp(async (t) => {
    const first = await register(t);
    assertEquals(first.status, 201, first.text);
    assertEquals(first.body.user.roles.map((r: { slug: string }) => r.slug), ["admin"]);

    const second = await register(t);
    assertEquals(second.status, 403, second.text);
    assertEquals(second.body.code, "registration_closed");

    const owner = await createUserWithPermissions(t, ["settings.admin"]);
    const config = await api(t.app, "GET", "/v1/config", { token: owner.token });
    assertEquals(config.body.registrationOpen, false, "the default is closed");
    const open = await api(t.app, "PATCH", "/v1/config", {
      token: owner.token,
      body: { registrationOpen: true },
    });
    assertEquals(open.status, 200, open.text);
    const third = await register(t);
    assertEquals(third.status, 201, third.text);
    assertEquals(third.body.user.roles, []);
  });
});

Deno.test("while no user exists, registration works even when the config closes it", async () => {
  await withApp(async (t) => {
    await updateRuntimeConfig(t.deps, SYSTEM_ACTOR, { registrationOpen: false });
    const first = await register(t);
    assertEquals(first.status, 201, first.text);
    assertEquals(first.body.user.roles.map((r: { slug: string }) => r.slug), ["admin"]);
  });
});

Deno.test("parallel registrations on an empty store: exactly one (the Admin), the rest 403", async () => {
  await withApp(async (t) => {
    const results = await Promise.all(Array.from({ length: 8 }, () => register(t)));
    const statuses = results.map((r) => r.status).sort();
    assertEquals(statuses, [201, 403, 403, 403, 403, 403, 403, 403]);
    const created = results.find((r) => r.status === 201)!;
    assertEquals(created.body.user.roles.map((r: { slug: string }) => r.slug), ["admin"]);
    for (const r of results.filter((r) => r.status === 403)) {
      assertEquals(r.body.code, "registration_closed");
    }
  });
});
