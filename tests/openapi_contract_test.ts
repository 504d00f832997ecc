// deno-lint-ignore-file no-explicit-any
/**
 * Issue 16, deliverable 5: the OpenAPI document declares every status and `code` each operation
 * can answer. Walks every operation of /v1/openapi.json and provokes what the pipeline answers
 * by itself (no token, a token without the permission, a malformed id, an unknown query
 * parameter, a body of the wrong type, too large or not JSON, a module switched off) and what
 * the handler answers to the document's own example body; each answer must be one the document
 * declares for that operation, with that code, and none may be a 5xx. (Errors the handlers
 * raise deeper are checked by the whole suite: in tests an undeclared code is a 500.) The
 * headers an answer carries (`X-Request-Id`, `WWW-Authenticate`, `Cache-Control`, ...) must be
 * declared on it too.
 * Every documented request-body example is accepted (never 400 `validation_failed`; the records
 * it names may not exist) and passes its route's schema.
 */
import { assert, assertEquals } from "./_helpers/assert.ts";
import { createTestApp, createUserWithPermissions } from "./_helpers/test_app.ts";
import { type Permission, PERMISSIONS } from "../domain/auth/permissions.ts";
import { MODULES } from "../domain/platform/modules.ts";
import { fieldIssues } from "../server/errors.ts";

const RANDOM_ID = "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

interface Operation {
  method: string;
  path: string;
  op: any;
}

function operationsOf(doc: any): Operation[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    ["get", "post", "put", "patch", "delete"].filter((m) => item[m])
      .map((method) => ({ method, path, op: item[method] }))
  );
}

/** The codes the document declares for a status of an operation (empty: none). */
function declaredCodes(doc: any, op: any, status: number): string[] {
  let response = op.responses?.[String(status)];
  const ref: string | undefined = response?.$ref;
  if (ref) response = doc.components.responses[ref.replace("#/components/responses/", "")];
  const schema = response?.content?.["application/problem+json"]?.schema;
  return schema?.allOf?.[1]?.properties?.code?.enum ?? [];
}

/**
 * The headers of an answer that its operation's document must declare for that status
 * (`Cache-Control` on success only: the vault's refusals carry it too, on shared error answers).
 */
const WATCHED_HEADERS = [
  "X-Request-Id",
  "Retry-After",
  "WWW-Authenticate",
  "Idempotent-Replayed",
  "Content-Disposition",
  "Vary",
  "Cache-Control",
];

function undeclaredHeaders(doc: any, op: any, response: Response): string[] {
  let declared = op.responses?.[String(response.status)] ?? op.responses?.default;
  const ref: string | undefined = declared?.$ref;
  if (ref) declared = doc.components.responses[ref.replace("#/components/responses/", "")];
  const names = Object.keys(declared?.headers ?? {}).map((name) => name.toLowerCase());
  return WATCHED_HEADERS.filter((name) =>
    response.headers.has(name) && !names.includes(name.toLowerCase()) &&
    !(name === "Cache-Control" && response.status >= 400)
  );
}

function fill(path: string, id = RANDOM_ID): string {
  return path.replace(/\{path\}/, `${id}/x.png`).replace(/\{slug\}/, "email").replace(
    /\{[^}]+\}/g,
    id,
  );
}

const kinds = {
  noToken: "no token",
  noPermission: "a token without the permission",
  malformedId: "a malformed id",
  unknownQuery: "an unknown query parameter",
  wrongType: "a body of the wrong Content-Type",
  tooLarge: "a body larger than the limit",
  notJson: "a body that is not JSON",
  example: "the document's example body",
} as const;

Deno.test({
  name: "openapi: every answer of every operation is declared with its code",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp({ env: { AUTH_RATE_LIMIT: "off" } });
    try {
      const doc = await (await t.app.request("/v1/openapi.json")).json();
      const everything = await createUserWithPermissions(
        t,
        PERMISSIONS.map((p) => p.id as Permission),
      );
      const nobody = await createUserWithPermissions(t, []);
      const problems: string[] = [];
      let checked = 0;
      const check = async (o: Operation, kind: string, url: string, init: RequestInit) => {
        const response = await t.app.request(url, { method: o.method.toUpperCase(), ...init });
        const text = await response.text();
        checked++;
        const where = `${o.method.toUpperCase()} ${o.path} (${kind})`;
        const headers = undeclaredHeaders(doc, o.op, response);
        if (headers.length > 0) {
          problems.push(`${where}: ${response.status} carries undeclared ${headers.join(", ")}`);
        }
        if (response.status >= 500) {
          problems.push(`${where}: answered ${response.status} ${text.slice(0, 200)}`);
          return response.status;
        }
        if (response.status < 400) return response.status;
        const code = JSON.parse(text).code;
        if (!declaredCodes(doc, o.op, response.status).includes(code)) {
          problems.push(`${where}: ${response.status} ${code} is not declared`);
        }
        const example = o.op.requestBody?.content?.["application/json"];
        if (kind === kinds.example && example && code === "validation_failed") {
          problems.push(`${where}: the server refuses the documented example: ${text}`);
        }
        return response.status;
      };
      const auth = (token: string, extra: Record<string, string> = {}) => ({
        headers: { Authorization: `Bearer ${token}`, ...extra },
      });
      for (const o of operationsOf(doc)) {
        const url = fill(o.path);
        const isPublic = Array.isArray(o.op.security) && o.op.security.length === 0;
        const jsonBody = o.op.requestBody?.content?.["application/json"];
        if (!isPublic) {
          assertEquals(await check(o, kinds.noToken, url, {}), 401, `${o.path} without a token`);
          await check(o, kinds.noPermission, url, auth(nobody.token));
        }
        const token = everything.token;
        if (o.path.includes("{") && !o.path.endsWith("{path}")) {
          await check(o, kinds.malformedId, fill(o.path, "not-an-id"), auth(token));
        }
        if ((o.op.parameters ?? []).some((p: any) => p.in === "query")) {
          await check(o, kinds.unknownQuery, `${url}?fuzz=1`, auth(token));
        }
        if (jsonBody) {
          await check(o, kinds.wrongType, url, {
            ...auth(token, { "Content-Type": "text/plain" }),
            body: "hello",
          });
          await check(o, kinds.tooLarge, url, {
            ...auth(token, { "Content-Type": "application/json" }),
            body: `{"x":"${"a".repeat(1024 * 1024 + 10)}"}`,
          });
          await check(o, kinds.notJson, url, {
            ...auth(token, { "Content-Type": "application/json" }),
            body: "{not json",
          });
          await check(o, kinds.example, url, {
            ...auth(token, { "Content-Type": "application/json" }),
            body: JSON.stringify(jsonBody.example),
          });
        } else if (o.method !== "delete" && !o.path.startsWith("/v1/auth")) {
          await check(o, kinds.example, url, auth(token));
        }
      }
      assert(checked > 700, `only ${checked} requests`);
      assert(
        problems.length === 0,
        `${problems.length} undeclared answers:\n${problems.join("\n")}`,
      );
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "openapi: a disabled module's operations declare module_disabled",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp();
    try {
      const doc = await (await t.app.request("/v1/openapi.json")).json();
      const user = await createUserWithPermissions(t, PERMISSIONS.map((p) => p.id as Permission));
      const optional = MODULES.filter((m) => !m.core).map((m) => m.slug);
      await t.deps.db.updateTable("modules").set({ enabled: false }).where("slug", "in", optional)
        .execute();
      t.deps.modules.invalidate();
      let refused = 0;
      for (const o of operationsOf(doc)) {
        const response = await t.app.request(fill(o.path), {
          method: o.method.toUpperCase(),
          headers: { Authorization: `Bearer ${user.token}` },
        });
        const body = await response.text();
        if (response.status !== 403 || !body.includes("module_disabled")) continue;
        refused++;
        assert(
          declaredCodes(doc, o.op, 403).includes("module_disabled"),
          `${o.method} ${o.path} answers module_disabled without declaring it`,
        );
      }
      assert(refused > 40, `only ${refused} operations were refused by a disabled module`);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: "openapi: every request-body example passes its route's own schema",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp();
    try {
      const doc = await (await t.app.request("/v1/openapi.json")).json();
      const failures: string[] = [];
      let examples = 0;
      for (const route of t.routes) {
        if (!route.spec.body) continue;
        const path = route.fullPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
        const example = doc.paths[path][route.spec.method].requestBody.content["application/json"]
          .example;
        examples++;
        const result = route.spec.body.safeParse(example);
        if (!result.success) {
          failures.push(
            `${route.spec.method.toUpperCase()} ${path}: ${JSON.stringify(example)} → ${
              JSON.stringify(fieldIssues(result.error))
            }`,
          );
        }
      }
      assert(examples > 60, `only ${examples} examples`);
      assert(failures.length === 0, `${failures.length} examples fail:\n${failures.join("\n")}`);
    } finally {
      await t.close();
    }
  },
});
