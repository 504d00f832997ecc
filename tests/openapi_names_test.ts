// deno-lint-ignore-file no-explicit-any
/**
 * Issue 43, item 14: the OpenAPI document as generated clients consume it. Every resource,
 * request body and page envelope is a named component (`Product`, `CreateProductBody`,
 * `ProductPage`), and every error response has a name that depends on what it answers, never
 * on the order the routes are declared in.
 */
import { assert, assertEquals } from "./_helpers/assert.ts";
import { createTestApp, type TestApp } from "./_helpers/test_app.ts";
import { buildOpenApiDocument } from "../server/openapi.ts";

let t: TestApp;
let doc: any;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  doc = await (await t.app.request("/v1/openapi.json")).json();
});
Deno.test.afterAll(async () => {
  await t.close();
});

const METHODS = ["get", "post", "put", "patch", "delete"];

function operations(document: any): { where: string; op: any }[] {
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      where: `${m.toUpperCase()} ${path}`,
      op: item[m],
    }))
  );
}

/** The component a `{ $ref }` names, or undefined when the schema is written out in place. */
function componentOf(schema: any): string | undefined {
  const ref: unknown = schema?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return undefined;
  const name = ref.slice("#/components/schemas/".length);
  assert(doc.components.schemas[name], `${ref} exists`);
  return name;
}

Deno.test("every request body and every JSON answer is a named component", () => {
  const unnamed: string[] = [];
  for (const { where, op } of operations(doc)) {
    for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
      if (!componentOf(media.schema)) unnamed.push(`${where} request ${type}`);
    }
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const json = response.content?.["application/json"];
      if (json && !componentOf(json.schema)) unnamed.push(`${where} ${status}`);
    }
  }
  assertEquals(unnamed, [], `unnamed schemas:\n${unnamed.join("\n")}`);
});

Deno.test("resources, bodies and pages carry the names a client expects", () => {
  for (
    const name of [
      "Product",
      "Transaction",
      "RepairTicket",
      "Rental",
      "Account",
      "User",
      "Pagination",
      "ProductPage",
      "CreateProductBody",
      "CreateTransactionBody",
      "Problem",
    ]
  ) {
    assert(doc.components.schemas[name], `components.schemas.${name}`);
  }
  const json = (path: string, method: string, status: string) =>
    doc.paths[path][method].responses[status].content["application/json"].schema;
  assertEquals(componentOf(json("/v1/products", "get", "200")), "ProductPage");
  assertEquals(componentOf(json("/v1/products/{id}", "get", "200")), "Product");
  assertEquals(componentOf(json("/v1/transactions/{id}", "get", "200")), "Transaction");
  assertEquals(componentOf(json("/v1/repair-tickets/{id}", "get", "200")), "RepairTicket");
  assertEquals(
    componentOf(doc.paths["/v1/products"].post.requestBody.content["application/json"].schema),
    "CreateProductBody",
  );
  const page = doc.components.schemas.ProductPage;
  assertEquals(componentOf(page.properties.data.items), "Product");
  assertEquals(componentOf(page.properties.pagination), "Pagination");
  assertEquals(page.required.sort(), ["data", "pagination"]);
});

Deno.test("error responses are named after their status and codes, with no sequence numbers", () => {
  const names = Object.keys(doc.components.responses);
  assert(names.length > 40, `${names.length} error responses`);
  for (const name of names) {
    assert(/^Error\d{3}[A-Za-z]+$/.test(name), `${name} carries a number`);
    const response = doc.components.responses[name];
    const codes: string[] = response.content["application/problem+json"].schema.allOf[1]
      .properties.code.enum;
    const status = name.slice(5, 8);
    const words = codes.map((code) =>
      code.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")
    ).join("Or");
    assert(name.startsWith(`Error${status}${words}`), `${name} names its codes ${codes}`);
  }
  assert(doc.components.responses["Error404NotFound"], "the plain 404");
});

Deno.test("the document names everything the same whatever order the routes are declared in", () => {
  const info = { version: "test", serverUrl: "http://shop.test" };
  const forward = buildOpenApiDocument(t.routes, info) as any;
  const backward = buildOpenApiDocument([...t.routes].reverse(), info) as any;
  assertEquals(
    Object.keys(backward.components.responses),
    Object.keys(forward.components.responses),
  );
  assertEquals(backward.components, forward.components);
  for (const { where, op } of operations(forward)) {
    const [method, path] = where.split(" ") as [string, string];
    const other = backward.paths[path][method.toLowerCase()];
    assertEquals(other.responses, op.responses, where);
    assertEquals(other.requestBody, op.requestBody, where);
  }
});
