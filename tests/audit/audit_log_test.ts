/** GET /audit-log: `q` over action, actor email and entity type; `sort=createdAt` (API §1.3). */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { audit } from "../../app/audit/audit.ts";

let t: TestApp;
let auditor: TestUser;
const marker = crypto.randomUUID().slice(0, 6);
const ids: Record<string, string> = {};

withTestApp(async (app) => {
  t = app;
  auditor = await createUserWithPermissions(t, ["settings.admin"]);
  const events = {
    action: { actorEmail: null, action: `probe.${marker}_done`, entityType: null },
    email: { actorEmail: `Ann.${marker}@Example.test`, action: "probe.other", entityType: null },
    entity: { actorEmail: null, action: "probe.third", entityType: `widget_${marker}` },
    percent: { actorEmail: null, action: `probe.${marker}.100%`, entityType: "thing" },
  };
  let at = Date.parse("2026-11-01T12:00:00Z");
  for (const [key, event] of Object.entries(events)) {
    const id = t.deps.ids.uuid();
    ids[key] = id;
    const when = new Date(at);
    await audit({ ids: { uuid: () => id }, clock: { now: () => when } }, t.deps.db, {
      userId: null,
      email: event.actorEmail,
    }, { action: event.action, entityType: event.entityType });
    at += 60_000;
  }
});

async function search(q: string, extra = ""): Promise<string[]> {
  const res = await api(t.app, "GET", `/v1/audit-log?q=${encodeURIComponent(q)}${extra}`, {
    token: auditor.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data.map((e: { id: string }) => e.id);
}

Deno.test("q searches action, actor email and entity type, case-insensitively", async () => {
  assertEquals(await search(`PROBE.${marker}_DONE`), [ids.action]);
  assertEquals(await search(`ann.${marker}@example`), [ids.email]);
  assertEquals(await search(`WIDGET_${marker}`), [ids.entity]);
  assertEquals((await search(marker)).length, 4);
});

Deno.test("q treats %, _ and \\ literally", async () => {
  assertEquals(await search(`${marker}.100%`), [ids.percent]);
  assertEquals(await search(`probe.${marker}_`), [ids.action]);
  assertEquals(await search(`probe.${marker}%`), []);
  assertEquals(await search(`probe_${marker}`), []);
  assertEquals(await search(`${marker}\\`), []);
});

Deno.test("sort=createdAt is an alias of at; other fields → 400", async () => {
  const asc = await search(marker, "&sort=createdAt&order=asc");
  assertEquals(asc, [ids.action, ids.email, ids.entity, ids.percent]);
  assertEquals(await search(marker, "&sort=at&order=desc"), [...asc].reverse());
  const bad = await api(t.app, "GET", "/v1/audit-log?sort=action", { token: auditor.token });
  assertEquals(bad.status, 400);
});
