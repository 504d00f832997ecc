/**
 * The actor cache: a hit costs no query, and an entry is forgotten on invalidation and after its
 * TTL. On PostgreSQL only cluster members cache; that changes apply at once on every process is
 * proven with three processes in tests/cluster/auth_test.ts.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { createActorCache } from "../../app/auth/actor_cache.ts";

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

Deno.test("the cache forgets an entry after its TTL (a bound on staleness)", async () => {
  const user = await createUserWithPermissions(t, []);
  const cache = createActorCache(t.deps.db, { ttlMs: 50 });
  assertEquals((await cache.get(user.id))?.isActive, true);
  await t.deps.db.updateTable("users").set({ is_active: false }).where("id", "=", user.id)
    .execute();
  assertEquals((await cache.get(user.id))?.isActive, true, "still cached");
  await new Promise((resolve) => setTimeout(resolve, 80));
  assertEquals((await cache.get(user.id))?.isActive, false);
});
