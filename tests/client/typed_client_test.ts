/**
 * Issue 43, item 16: a typed client the project ships and tests. The types are generated from
 * the live OpenAPI document with openapi-typescript (client/generate.ts), client/first_sale.ts
 * is type-checked against them and runs the README's first sale through openapi-fetch against
 * a real listener. A change to the API that breaks generated clients (a renamed field, path or
 * schema, a body that no longer takes what the README sends) fails here.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { createTestApp, createUserWithPermissions } from "../_helpers/test_app.ts";
import { type Permission, PERMISSIONS } from "../../domain/auth/permissions.ts";
import { clientTypes } from "../../client/generate.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const CLIENT = new URL("../../client/first_sale.ts", import.meta.url);

/** A directory holding the client script beside the types generated from `document`. */
async function clientDir(document: Record<string, unknown>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "shop-typed-client-" });
  await Deno.writeTextFile(`${dir}/schema.d.ts`, await clientTypes(document));
  await Deno.copyFile(CLIENT, `${dir}/first_sale.ts`);
  return dir;
}

async function deno(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { success: output.success, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test({
  name: "the README's first sale runs through openapi-fetch, typed by the document's own types",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp();
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
    const document = await (await t.app.request("/v1/openapi.json")).json();
    const dir = await clientDir(document);
    try {
      const owner = await createUserWithPermissions(
        t,
        PERMISSIONS.map((p) => p.id as Permission),
      );
      const run = await deno(
        [
          "run",
          "--check",
          "--config",
          CONFIG,
          "--allow-net=127.0.0.1",
          "--allow-env=TOKEN",
          `${dir}/first_sale.ts`,
          `http://127.0.0.1:${server.addr.port}`,
        ],
        { TOKEN: owner.token },
      );
      assert(run.success, `the client failed:\n${run.stderr}`);
      const sale = JSON.parse(run.stdout);
      assertEquals(sale.status, "complete");
      assert(/^S-\d{7}$/.test(sale.receiptNumber), sale.receiptNumber);
      assert(Number(sale.total) >= 19.98, sale.total);
      assert(/^\d{4}-\d{2}-\d{2}$/.test(sale.reportDate), sale.reportDate);
    } finally {
      await server.shutdown();
      await t.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a document that breaks the client (a field it reads is gone) fails its type check",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const t = await createTestApp();
    const document = await (await t.app.request("/v1/openapi.json")).json();
    await t.close();
    const transaction = document.components.schemas.Transaction;
    delete transaction.properties.balanceDue;
    transaction.required = transaction.required.filter((name: string) => name !== "balanceDue");
    const dir = await clientDir(document);
    try {
      const check = await deno(["check", "--config", CONFIG, `${dir}/first_sale.ts`]);
      assert(!check.success, "the broken document still type-checks");
      assertStringIncludes(check.stderr, "balanceDue");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
