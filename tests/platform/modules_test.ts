/**
 * API §4 modules: enabling an unlicensed module → 409 not_licensed, and the pos module's gate
 * (`/registers*`, `/drawers*`, `/transactions*`, `/reports/daily`), where `/reports/daily`
 * belongs to pos while the rest of `/reports/` belongs to the reports module.
 */
import { assertEquals } from "../_helpers/assert.ts";
import type { AppDeps } from "../../app/deps.ts";
import { ApiRouter } from "../../server/route.ts";
import { setModuleLicensed } from "../../app/platform/modules.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";

let t: TestApp;
let admin: TestUser;

/** A stand-in route in the reports module's area (no other report route exists yet). */
function reportsProbe(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/reports/gate-probe", "Probe").route({
    method: "get",
    path: "/",
    summary: "probe",
    access: "reports.view",
    responses: { 200: { description: "ok" } },
  }, (c) => c.json({ ok: true }));
}

withTestApp(async (app) => {
  t = app;
  admin = await createUserWithPermissions(t, ["settings.admin", "pos.admin", "reports.view"]);
}, { extraRouters: [reportsProbe] });

function setEnabled(slug: string, enabled: boolean) {
  return api(t.app, "PATCH", `/v1/modules/${slug}`, { token: admin.token, body: { enabled } });
}

async function moduleOf(slug: string) {
  const list = await api(t.app, "GET", "/v1/modules", { token: admin.token });
  return list.body.data.find((m: { slug: string }) => m.slug === slug);
}

Deno.test("enabling an unlicensed module → 409 not_licensed and it stays off", async () => {
  await setModuleLicensed(t.deps, "rentals", false);
  try {
    const res = await setEnabled("rentals", true);
    assertEquals(res.status, 409, res.text);
    assertEquals(res.body.code, "not_licensed");
    const rentals = await moduleOf("rentals");
    assertEquals(rentals.licensed, false);
    assertEquals(rentals.enabled, false);
    // Disabling an unlicensed module is allowed (it is already off).
    assertEquals((await setEnabled("rentals", false)).status, 200);
  } finally {
    await setModuleLicensed(t.deps, "rentals", true);
  }
  const licensed = await setEnabled("rentals", true);
  assertEquals(licensed.status, 200, licensed.text);
  assertEquals(licensed.body.enabled, true);
});

const POS_PATHS = [
  "/v1/registers",
  "/v1/drawers",
  "/v1/transactions",
  "/v1/reports/daily?locationId=0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
];

Deno.test("a disabled pos module gates registers, drawers, transactions and /reports/daily, not other reports", async () => {
  const off = await setEnabled("pos", false);
  assertEquals(off.status, 200, off.text);
  try {
    for (const path of POS_PATHS) {
      const res = await api(t.app, "GET", path, { token: admin.token });
      assertEquals(res.status, 403, path);
      assertEquals(res.body.code, "module_disabled", path);
    }
    const report = await api(t.app, "GET", "/v1/reports/gate-probe", { token: admin.token });
    assertEquals(report.status, 200, report.text);
  } finally {
    assertEquals((await setEnabled("pos", true)).status, 200);
  }
  for (const path of POS_PATHS) {
    const res = await api(t.app, "GET", path, { token: admin.token });
    assertEquals(res.body?.code === "module_disabled", false, path);
  }
});

Deno.test("a disabled reports module gates /reports/* but not /reports/daily (pos)", async () => {
  assertEquals((await setEnabled("reports", false)).status, 200);
  try {
    const report = await api(t.app, "GET", "/v1/reports/gate-probe", { token: admin.token });
    assertEquals(report.status, 403);
    assertEquals(report.body.code, "module_disabled");
    const daily = await api(t.app, "GET", POS_PATHS[3]!, { token: admin.token });
    assertEquals(daily.body?.code === "module_disabled", false, daily.text);
  } finally {
    assertEquals((await setEnabled("reports", true)).status, 200);
  }
});
