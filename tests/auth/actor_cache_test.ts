/**
 * The actor cache: a hit costs no query, changes made in this process apply at once, and a
 * second process (its own deps and connection pool on the same PostgreSQL database) hears
 * about them through LISTEN/NOTIFY.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { createDeps } from "../../app/create_deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import { createActorCache, listenForIdentityChanges } from "../../app/auth/actor_cache.ts";
import { createAppWithRoutes } from "../../server/app.ts";
import { testConfig } from "../_helpers/test_app.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

Deno.test("a cached actor costs no query until it is invalidated", async () => {
  const user = await createUserWithPermissions(t, ["settings.view"]);
  let queries = 0;
  const cache = createActorCache(t.deps.db.withPlugin({
    transformQuery(args) {
      queries++;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  }));
  const first = await cache.get(user.id);
  assertEquals(first?.permissions.has("settings.view"), true);
  await Promise.all(Array.from({ length: 20 }, () => cache.get(user.id)));
  assertEquals(queries, 1);
  cache.invalidate();
  await cache.get(user.id);
  assertEquals(queries, 2);
});

Deno.test("the cache forgets an entry after its TTL (safety net for lost notifications)", async () => {
  const user = await createUserWithPermissions(t, []);
  const cache = createActorCache(t.deps.db, { ttlMs: 50 });
  assertEquals((await cache.get(user.id))?.isActive, true);
  await t.deps.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id)
    .execute();
  assertEquals((await cache.get(user.id))?.isActive, true, "still cached");
  await new Promise((resolve) => setTimeout(resolve, 80));
  assertEquals((await cache.get(user.id))?.isActive, false);
});

Deno.test({
  name: "another process drops its cached actors when this one changes roles (LISTEN/NOTIFY)",
  ignore: !Deno.env.get("TEST_DATABASE_URL") && !Deno.env.get("DATABASE_URL"),
  async fn() {
    assert(t.database.url);
    const handle = await openDatabase({ databaseUrl: t.database.url, poolSize: 2 });
    try {
      // A caching actor cache (createDeps caches none on PostgreSQL; this proves the
      // notification path for a process that does).
      const other = {
        ...createDeps({
          config: testConfig({ AUTH_RATE_LIMIT: "off" }),
          db: handle.db,
          dbKind: "postgres",
          logger: createMemoryLogger(),
        }),
        actors: createActorCache(handle.db),
      };
      const unlisten = await listenForIdentityChanges(other.actors, handle.listen!);
      try {
        const otherApp = createAppWithRoutes(other).app;
        // settings.view too: a role may be given only permissions the caller holds (API §3).
        const admin = await createUserWithPermissions(t, ["users.admin", "settings.view"]);
        const user = await createUserWithPermissions(t, []);
        // Same secret in both configs: the token works in both processes.
        assertEquals((await api(otherApp, "GET", "/v1/config", { token: user.token })).status, 403);
        const role = await api(t.app, "POST", "/v1/roles", {
          token: admin.token,
          body: {
            name: `Notify ${crypto.randomUUID().slice(0, 4)}`,
            permissions: ["settings.view"],
          },
        });
        await api(t.app, "POST", `/v1/users/${user.id}/roles`, {
          token: admin.token,
          body: { roleId: role.body.id },
        });
        // Well within the cache TTL (3 s): only the notification can explain a change.
        const deadline = Date.now() + 1500;
        let status = 403;
        while (status !== 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          status = (await api(otherApp, "GET", "/v1/config", { token: user.token })).status;
        }
        assertEquals(status, 200);
      } finally {
        await unlisten();
      }
    } finally {
      await handle.close();
    }
  },
});
