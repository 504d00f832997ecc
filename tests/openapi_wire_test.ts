// deno-lint-ignore-file no-explicit-any
/**
 * Issue 43, item 15: the OpenAPI document says what goes over the wire. Query values are typed
 * as what they are read as (`page` an integer, `isActive` a boolean), responses declare their
 * headers (`X-Request-Id` on every answer, `WWW-Authenticate`, `Retry-After`,
 * `Idempotent-Replayed`, `Cache-Control`, ...) and downloads their real media types. (Which
 * headers real answers carry is checked against the document in tests/openapi_contract_test.ts.)
 */
import { assert, assertEquals } from "./_helpers/assert.ts";
import {
  api,
  createTestApp,
  createUserWithPermissions,
  type TestApp,
} from "./_helpers/test_app.ts";
import { PERMISSIONS } from "../domain/auth/permissions.ts";

let t: TestApp;
let doc: any;

Deno.test.beforeAll(async () => {
  t = await createTestApp({ env: { AUTH_RATE_LIMIT: "off" } });
  doc = await (await t.app.request("/v1/openapi.json")).json();
});
Deno.test.afterAll(async () => {
  await t.close();
});

const METHODS = ["get", "post", "put", "patch", "delete"];

function operations(): { where: string; op: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      where: `${m.toUpperCase()} ${path}`,
      op: item[m],
    }))
  );
}

function resolved(response: any): any {
  const ref: string | undefined = response?.$ref;
  return ref ? doc.components.responses[ref.replace("#/components/responses/", "")] : response;
}

Deno.test("page and limit are integers, boolean filters booleans", () => {
  const params = doc.paths["/v1/products"].get.parameters;
  const byName = (name: string) => params.find((p: any) => p.name === name).schema;
  assertEquals(byName("page"), { type: "integer", minimum: 1, maximum: 1_000_000_000, default: 1 });
  assertEquals(byName("limit").type, "integer");
  assertEquals(byName("limit").default, 25);
  assertEquals(byName("isActive"), { type: "boolean" });
  assertEquals(byName("lowStock").type, "boolean");
  const textual: string[] = [];
  for (const { where, op } of operations()) {
    for (const p of op.parameters ?? []) {
      if (p.in !== "query") continue;
      const text = JSON.stringify(p.schema);
      if (text.includes('["true","false"]') || text.includes('"^\\\\d+$"')) {
        textual.push(`${where} ${p.name}`);
      }
    }
  }
  assertEquals(textual, [], "query values documented as text");
});

Deno.test("every answer declares X-Request-Id; 401 WWW-Authenticate; 429 and 503 Retry-After", () => {
  let responses = 0;
  for (const { where, op } of operations()) {
    for (const [status, declared] of Object.entries<any>(op.responses)) {
      const headers = resolved(declared).headers ?? {};
      responses++;
      assert(headers["X-Request-Id"], `${where} ${status}: X-Request-Id`);
      if (status === "401") assert(headers["WWW-Authenticate"], `${where} 401`);
      if (status === "429" || status === "503") {
        assert(headers["Retry-After"], `${where} ${status}`);
      }
    }
  }
  assert(responses > 1000, `${responses} responses`);
  for (const name of Object.keys(doc.components.headers)) {
    assert(doc.components.headers[name].schema, `components.headers.${name}`);
  }
});

Deno.test("a keyed POST declares Idempotent-Replayed, and a replay carries it", async () => {
  const created = doc.paths["/v1/locations"].post.responses["201"];
  assert(created.headers["Idempotent-Replayed"]);
  assert(!doc.paths["/v1/locations"].get.responses["200"].headers["Idempotent-Replayed"]);
  assert(!doc.paths["/v1/auth/login"].post.responses["200"].headers["Idempotent-Replayed"]);
  const editor = await createUserWithPermissions(t, ["settings.edit"]);
  const send = () =>
    api(t.app, "POST", "/v1/locations", {
      token: editor.token,
      body: { name: "Replayed Street" },
      headers: { "Idempotency-Key": "wire-test-replay" },
    });
  const first = await send();
  assertEquals(first.status, 201);
  assertEquals(first.headers.get("Idempotent-Replayed"), null);
  const again = await send();
  assertEquals(again.status, 201);
  assertEquals(again.headers.get("Idempotent-Replayed"), "true");
});

Deno.test("answers holding a credential or secret declare Cache-Control", () => {
  const declares = (path: string, method: string, status: string) =>
    Boolean(doc.paths[path][method].responses[status].headers?.["Cache-Control"]);
  assert(declares("/v1/auth/login", "post", "200"));
  assert(declares("/v1/auth/pin-login", "post", "200"));
  assert(declares("/v1/users", "post", "201"));
  assert(declares("/v1/vault/entries/{id}/reveal", "post", "200"));
  assert(!declares("/v1/products", "get", "200"));
});

Deno.test("downloads declare their real media types and Content-Disposition", () => {
  const content = (path: string) => doc.paths[path].get.responses["200"];
  for (const path of ["/v1/files/serve/{path}", "/v1/storage/files/{id}/content"]) {
    const response = content(path);
    assertEquals(
      Object.keys(response.content).sort(),
      [
        "application/pdf",
        "application/vnd.oasis.opendocument.spreadsheet",
        "application/vnd.oasis.opendocument.text",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "image/gif",
        "image/jpeg",
        "image/png",
        "image/webp",
        "text/plain",
      ],
      path,
    );
    assert(response.headers["Content-Disposition"], path);
  }
  const label = content("/v1/products/{id}/label");
  assertEquals(Object.keys(label.content).sort(), ["application/pdf", "image/png"]);
  assert(label.headers["Vary"]);
  const receipt = content("/v1/transactions/{id}/receipt");
  assert(receipt.headers["Vary"]);
});

Deno.test("request schemas are as strict as the server: email format, master password, money, permissions", () => {
  const schemas = doc.components.schemas;
  const nonNull = (schema: any) => schema.anyOf?.find((s: any) => s.type !== "null") ?? schema;
  assertEquals(nonNull(schemas.CreateAccountBody.properties.email).format, "email");
  assertEquals(schemas.CreateUserBody.properties.email.format, "email");
  assertEquals(schemas.RegisterFirstUserBody.properties.email.format, "email");
  const master = schemas.InitializeVaultBody.properties.masterPassword;
  assertEquals([master.minLength, master.maxLength], [12, 1024]);
  assertEquals(schemas.ChangeMasterPasswordBody.properties.newPassword.minLength, 12);
  const permission = schemas.CreateRoleBody.properties.permissions.items;
  assertEquals([...permission.enum].sort(), PERMISSIONS.map((p) => p.id).sort());
  const price = schemas.CreateProductBody.properties.price.anyOf;
  assertEquals(price.find((s: any) => s.type === "number").multipleOf, 0.01);
  assertEquals(price.find((s: any) => s.type === "string").pattern, "^-?\\d{1,10}(\\.\\d{1,2})?$");
});

Deno.test("every JSON answer and every error answer comes with an example", () => {
  const missing: string[] = [];
  for (const { where, op } of operations()) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const json = response.content?.["application/json"];
      if (json && json.example === undefined) missing.push(`${where} ${status}`);
    }
  }
  for (const [name, response] of Object.entries<any>(doc.components.responses)) {
    const problem = response.content["application/problem+json"];
    if (!problem.example?.code) missing.push(name);
    else assert(problem.schema.allOf[1].properties.code.enum.includes(problem.example.code), name);
  }
  assertEquals(missing, [], "answers without an example");
});

Deno.test("every answer's example passes the route's own response schema", () => {
  const failures: string[] = [];
  let examples = 0;
  for (const route of t.routes) {
    const path = route.fullPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/\*$/, "/{path}");
    for (const [status, response] of Object.entries(route.spec.responses)) {
      if (
        !response.schema || (response.contentType && response.contentType !== "application/json")
      ) {
        continue;
      }
      const example = doc.paths[path][route.spec.method].responses[status].content[
        "application/json"
      ].example;
      examples++;
      const result = response.schema.safeParse(example);
      if (!result.success) {
        failures.push(`${route.spec.method.toUpperCase()} ${path} ${status}: ${result.error}`);
      }
    }
  }
  assert(examples > 150, `only ${examples} examples`);
  assertEquals(failures, [], failures.join("\n"));
});
