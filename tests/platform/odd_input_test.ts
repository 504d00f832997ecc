// deno-lint-ignore-file no-explicit-any
/**
 * Odd input never ends as a 500 (issue 15, items 9–11; API §1.1, §1.2): a NUL in any string
 * or query parameter is a 400 naming the field, on every route; far dates are a 400; a lesson
 * plan too large for one statement is a 400; money as JSON numbers is accepted; a card number
 * disguised with no-break spaces, dots or full-width digits is still refused.
 */
import { z } from "zod";
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  api,
  type ApiResponse,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import type { Permission } from "../../domain/auth/permissions.ts";
import type { RegisteredRoute } from "../../server/route.ts";
import { NUL_MESSAGE } from "../../server/input_guards.ts";

let t: TestApp;
let boss: TestUser;

withTestApp(async (app) => {
  t = app;
  boss = await createUserWithPermissions(t, PERMISSIONS.map((p) => p.id as Permission));
}, { env: { AUTH_RATE_LIMIT: "off" } });

/** A route's path with each `:param` filled: a fresh UUID for ids, a module slug otherwise. */
function concretePath(route: RegisteredRoute): string {
  const params = route.spec.params
    ? (z.toJSONSchema(route.spec.params, { io: "input" }) as any).properties ?? {}
    : {};
  return route.fullPath.replace(
    /:([A-Za-z0-9_]+)/g,
    (_, name: string) =>
      params[name]?.enum?.[0] ??
        (params[name]?.format === "uuid" ? crypto.randomUUID() : "inventory"),
  );
}

function call(method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return api(t.app, method.toUpperCase(), path, { token: boss.token, body });
}

function assertNamesField(res: ApiResponse, field: string, what: string): void {
  const text = res.text.slice(0, 500);
  assertEquals(res.status, 400, `${what}: ${text}`);
  assertEquals(res.body.code, "validation_failed", `${what}: ${text}`);
  const paths = (res.body.errors ?? []).map((e: { path: string }) => e.path);
  assert(paths.includes(field), `${what}: expected an error naming "${field}", got ${text}`);
}

/** The first property of a route's body schema (a field the route really has). */
function firstBodyField(route: RegisteredRoute): string {
  const json = z.toJSONSchema(route.spec.body!, { io: "input", unrepresentable: "any" }) as any;
  const object = json.properties ? json : (json.anyOf ?? []).find((s: any) => s.properties);
  return Object.keys(object?.properties ?? { field: {} })[0]!;
}

Deno.test("every list refuses ?q=%00 with 400 naming q", async () => {
  const lists = t.routes.filter((r) =>
    r.spec.method === "get" && r.spec.query &&
    "q" in ((r.spec.query as unknown as z.ZodObject).shape ?? {})
  );
  assert(lists.length > 20, `only ${lists.length} lists found`);
  for (const route of lists) {
    const path = `${concretePath(route)}?q=%00`;
    assertNamesField(await call("get", path), "q", `GET ${path}`);
    const inTerm = `${concretePath(route)}?q=ab%00cd`;
    assertNamesField(await call("get", inTerm), "q", `GET ${inTerm}`);
  }
});

Deno.test("every route with a JSON body refuses a NUL in a string field, naming it", async () => {
  const withBody = t.routes.filter((r) => r.spec.body);
  assert(withBody.length > 50, `only ${withBody.length} routes with a body found`);
  for (const route of withBody) {
    const field = firstBodyField(route);
    const what = `${route.spec.method.toUpperCase()} ${route.fullPath} { ${field}: "a\\u0000" }`;
    const res = await call(route.spec.method, concretePath(route), { [field]: "a\u0000" });
    assertNamesField(res, field, what);
    assertEquals(res.body.errors.find((e: any) => e.path === field).message, NUL_MESSAGE);
  }
});

Deno.test("a NUL in login, in names on creates and in nested fields is a 400 naming it", async () => {
  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email: "a\u0000", password: "whatever-password" },
  });
  assertNamesField(login, "email", "login");
  assertNamesField(await call("post", "/v1/suppliers", { name: "Acme\u0000" }), "name", "supplier");
  assertNamesField(
    await call("post", "/v1/accounts", { primaryContact: { firstName: "A\u0000", lastName: "B" } }),
    "primaryContact.firstName",
    "account",
  );
  assertNamesField(
    await call("post", "/v1/products", { name: "P", sku: "S\u0000", price: "1.00" }),
    "sku",
    "product",
  );
  assertNamesField(
    await call("get", "/v1/transactions?itemSearch=%00"),
    "itemSearch",
    "transaction filter",
  );
  // A key holding a NUL is refused too (an unknown field either way).
  const key = await call("post", "/v1/suppliers", { "name\u0000": "x" });
  assertEquals(key.status, 400, key.text);
});

Deno.test("far dates on /transactions and /drawers are a 400 naming the parameter", async () => {
  for (const list of ["/v1/transactions", "/v1/drawers"]) {
    for (
      const query of [
        "to=9999-12-31",
        "from=9999-12-31",
        "from=0001-01-01",
        "to=3000-01-01",
        "to=9999-12-31T23:59:59Z",
        "from=1899-12-31T00:00:00Z",
      ]
    ) {
      const name = query.slice(0, query.indexOf("="));
      assertNamesField(await call("get", `${list}?${query}`), name, `${list}?${query}`);
    }
    // The widest range the contract accepts still works on this engine.
    const widest = await call("get", `${list}?from=1900-01-01&to=2999-12-31`);
    assertEquals(widest.status, 200, widest.text);
    const instants = await call("get", `${list}?from=1900-01-01T00:00:00Z&to=2999-12-31T23:59:59Z`);
    assertEquals(instants.status, 200, instants.text);
  }
  assertNamesField(await call("get", "/v1/audit-log?to=9999-12-31T00:00:00Z"), "to", "audit log");
  assertNamesField(await call("get", "/v1/lesson-sessions?to=9999-12-31"), "to", "sessions");
  assertNamesField(
    await call("post", "/v1/store-closures", { date: "9999-12-31", reason: "Far away" }),
    "date",
    "store closure",
  );
});

async function newEnrollment(): Promise<string> {
  const ok = async (path: string, body: unknown) => {
    const res = await call("post", path, body);
    assertEquals(res.status, 201, `${path}: ${res.text}`);
    return res.body;
  };
  const type = await ok("/v1/lesson-types", {
    name: `Piano ${crypto.randomUUID()}`,
    durationMinutes: 30,
  });
  const teacher = await ok("/v1/instructors", { firstName: "Ada", lastName: "Keys" });
  const slot = await ok("/v1/schedule-slots", {
    instructorId: teacher.id,
    lessonTypeId: type.id,
    dayOfWeek: 2,
    startTime: "16:00",
    durationMinutes: 30,
    maxStudents: 2,
  });
  const account = await ok("/v1/accounts", { primaryContact: { firstName: "S", lastName: "T" } });
  const enrollment = await ok("/v1/enrollments", {
    memberId: account.primaryMemberId,
    slotId: slot.id,
    startDate: "2026-12-01",
    billingInterval: "monthly",
  });
  return enrollment.id;
}

function planOf(items: number): unknown {
  const sections = [];
  for (let left = items, s = 0; left > 0; left -= 500, s++) {
    const count = Math.min(500, left);
    sections.push({
      title: `Section ${s}`,
      items: Array.from({ length: count }, (_, i) => ({ title: `Item ${s}.${i}` })),
    });
  }
  return { title: "A big plan", sections };
}

Deno.test("a lesson plan with more than 2,000 items is a 400; 2,000 items are stored", async () => {
  const enrollmentId = await newEnrollment();
  const path = `/v1/enrollments/${enrollmentId}/lesson-plans`;
  // 8,500 items were one INSERT of 68,000 bind parameters (PostgreSQL takes 65,535): a 500.
  assertNamesField(await call("post", path, planOf(8_500)), "sections", "8,500 items");
  assertNamesField(await call("post", path, planOf(2_001)), "sections", "2,001 items");
  const largest = await call("post", path, planOf(2_000));
  assertEquals(largest.status, 201, largest.text.slice(0, 500));
  const items = largest.body.sections.reduce((n: number, s: any) => n + s.items.length, 0);
  assertEquals(items, 2_000);
});

Deno.test("money is accepted as a JSON number with at most two decimals (19.99, 1.1, 0.29)", async () => {
  const created = await call("post", "/v1/products", {
    name: "Capo",
    sku: `CAPO-${crypto.randomUUID()}`,
    price: 19.99,
    cost: 0.29,
  });
  assertEquals(created.status, 201, created.text);
  assertEquals([created.body.price, created.body.cost], ["19.99", "0.29"]);
  const updated = await call("patch", `/v1/products/${created.body.id}`, { price: 1.1 });
  assertEquals(updated.status, 200, updated.text);
  assertEquals(updated.body.price, "1.10");
  assertNamesField(
    await call("patch", `/v1/products/${created.body.id}`, { price: 1.001 }),
    "price",
    "three decimals",
  );
  const config = await call("patch", "/v1/config", { discountApprovalThresholdPercent: 12.1 });
  assertEquals(config.status, 200, config.text);
  assertEquals(config.body.discountApprovalThresholdPercent, "12.10");
});

Deno.test("a card number disguised with no-break spaces, dots or full-width digits is refused", async () => {
  const account = await call("post", "/v1/accounts", { name: "Card holder" });
  assertEquals(account.status, 201, account.text);
  const path = `/v1/accounts/${account.body.id}/payment-methods`;
  for (
    const brand of [
      "4111\u00A01111\u00A01111\u00A01111",
      "4111.1111.1111.1111",
      "４１１１１１１１１１１１１１１１",
      "4111\u200B1111\u200B1111\u200B1111",
    ]
  ) {
    const res = await call("post", path, { type: "card", brand });
    assertNamesField(res, "brand", JSON.stringify(brand));
    assert(!res.text.includes("1111"), "the number is never echoed");
  }
  const fine = await call("post", path, { type: "card", brand: "visa", last4: "1111" });
  assertEquals(fine.status, 201, fine.text);
});
