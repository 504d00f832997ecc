/** `/docs`: the interactive reference works offline, from the pinned swagger-ui-dist package. */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";

let t: TestApp;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
});
Deno.test.afterAll(async () => {
  await t.close();
});

Deno.test("GET /docs is an HTML page that loads only local assets", async () => {
  const res = await t.app.request("/docs");
  assertEquals(res.status, 200);
  assertStringIncludes(res.headers.get("Content-Type") ?? "", "text/html");
  const html = await res.text();
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert(sources.length >= 3);
  for (const source of sources) assert(source.startsWith("/"), `${source} is not local`);
  assertStringIncludes(html, "/docs/assets/swagger-ui-bundle.js");
});

Deno.test("the reference's JavaScript and CSS are served from the package, the init script points at the spec", async () => {
  const bundle = await t.app.request("/docs/assets/swagger-ui-bundle.js");
  assertEquals(bundle.status, 200);
  assertStringIncludes(bundle.headers.get("Content-Type")!, "javascript");
  const code = await bundle.text();
  assert(code.length > 100_000);
  assertStringIncludes(code, "SwaggerUIBundle");

  const css = await t.app.request("/docs/assets/swagger-ui.css");
  assertEquals(css.status, 200);
  assertStringIncludes(css.headers.get("Content-Type")!, "text/css");
  await css.body?.cancel();

  const init = await t.app.request("/docs/assets/init.js");
  assertEquals(init.status, 200);
  assertStringIncludes(await init.text(), '"/v1/openapi.json"');
});

Deno.test("only the known asset files are served", async () => {
  for (const path of ["/docs/assets/package.json", "/docs/assets/..%2Fpackage.json"]) {
    const res = await t.app.request(path);
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
});

Deno.test("/docs and its assets carry a strict CSP, X-Frame-Options DENY and nosniff", async () => {
  for (const path of ["/docs", "/docs/assets/init.js", "/docs/assets/swagger-ui.css"]) {
    const res = await t.app.request(path);
    assertEquals(res.status, 200, path);
    await res.body?.cancel();
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    for (
      const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "connect-src 'self' http://shop.test",
      ]
    ) {
      assertStringIncludes(csp, directive, `${path}: ${csp}`);
    }
    assert(!/script-src[^;]*'unsafe-(inline|eval)'/.test(csp), `${path}: scripts stay strict`);
    assertEquals(res.headers.get("X-Frame-Options"), "DENY", path);
    assertEquals(res.headers.get("X-Content-Type-Options"), "nosniff", path);
  }
});

Deno.test("the reference does not keep tokens in localStorage (persistAuthorization: false)", async () => {
  const init = await (await t.app.request("/docs/assets/init.js")).text();
  assertStringIncludes(init, "persistAuthorization: false");
  assert(!init.includes("persistAuthorization: true"));
  assert(!/localStorage/.test(init));
  const html = await (await t.app.request("/docs")).text();
  assert(!/<script>(?!<\/script>)/.test(html), "no inline script in the page");
});

Deno.test("the /docs filter box matches operations by path, method, summary and description", async () => {
  const init = await (await t.app.request("/docs/assets/init.js")).text();
  assertStringIncludes(init, "filter: true");
  // The plugin as the page runs it (Swagger UI hands it an Immutable map; toJS/fromJS stand in).
  const window = { addEventListener: () => {} };
  const plugin = new Function("window", `${init}; return OperationFilterPlugin;`)(window);
  const system = { Im: { fromJS: (value: unknown) => value } };
  const op = (method: string, path: string, summary: string) => ({
    method,
    path,
    operation: { summary, description: "", operationId: `${method}${path}` },
  });
  const tagged = {
    "Point of sale": {
      tagDetails: {},
      operations: [
        op("post", "/v1/transactions/{id}/refunds", "Refund items of a completed transaction"),
        op("post", "/v1/drawers/open", "Open a drawer session"),
      ],
    },
    Products: { tagDetails: {}, operations: [op("get", "/v1/products", "List products")] },
  };
  const filter = (phrase: string) =>
    plugin(system).fn.opsFilter({ toJS: () => structuredClone(tagged) }, phrase);
  const refunds = filter("refund");
  assertEquals(Object.keys(refunds), ["Point of sale"]);
  assertEquals(refunds["Point of sale"].operations.length, 1);
  assertEquals(Object.keys(filter("post drawers")), ["Point of sale"]);
  assertEquals(filter("get products").Products.operations.length, 1);
  assertEquals(Object.keys(filter("nothing-like-this")), []);
  const everything = { toJS: () => tagged };
  assert(plugin(system).fn.opsFilter(everything, "  ") === everything, "an empty filter keeps all");
});
