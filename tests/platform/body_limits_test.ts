/**
 * Request bodies and memory (API §1.1, issue 15 item 2): the route's guard runs before any byte
 * of the body is read; a Content-Type the route does not take is refused with 415 before
 * reading; the byte limit (JSON 1 MiB, uploads `upload.maxBytes` plus multipart overhead) is
 * enforced while reading. The bodies here are streams that count what the server pulled.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestUser } from "../_helpers/test_app.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;
const UNKNOWN_ID = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

let t: TestApp;
let nobody: TestUser;
let cashier: TestUser;
let settings: TestUser;
let uploader: TestUser;
let approver: TestUser;

withTestApp(async (app) => {
  t = app;
  nobody = await createUserWithPermissions(t, []);
  cashier = await createUserWithPermissions(t, ["pos.edit"]);
  settings = await createUserWithPermissions(t, ["settings.edit", "settings.view"]);
  uploader = await createUserWithPermissions(t, ["files.upload"]);
  approver = await createUserWithPermissions(t, ["accounts.approve"]);
}, { env: { AUTH_RATE_LIMIT: "off" } });

/** A body of `total` bytes produced on demand, and how many of them the server pulled. */
function countedBody(total: number, fill = 0x61) {
  const chunk = new Uint8Array(CHUNK).fill(fill);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, counter };
}

async function send(
  path: string,
  headers: Record<string, string>,
  total: number,
  token?: string,
) {
  const { stream, counter } = countedBody(total);
  const res = await t.app.request(path, {
    method: "POST",
    headers: token ? { ...headers, Authorization: `Bearer ${token}` } : headers,
    body: stream,
  });
  const text = await res.text();
  await stream.cancel().catch(() => {});
  const body = text.startsWith("{") ? JSON.parse(text) : text;
  return { status: res.status, body, pulled: counter.pulled };
}

const MULTIPART = { "Content-Type": "multipart/form-data; boundary=x" };
const JSON_TYPE = { "Content-Type": "application/json" };

Deno.test("multipart on a JSON route is refused with 415 before the body is read", async () => {
  for (
    const [path, token] of [
      ["/v1/auth/login", undefined],
      ["/v1/locations", settings.token],
      [`/v1/tax-exemptions/${UNKNOWN_ID}/approve`, approver.token],
    ] as const
  ) {
    const res = await send(path, MULTIPART, 50 * MIB, token);
    assertEquals(res.status, 415, `${path}: ${JSON.stringify(res.body)}`);
    assertEquals(res.body.code, "unsupported_media_type");
    assert(res.pulled <= CHUNK, `${path} read ${res.pulled} bytes`);
  }
  const text = await send("/v1/locations", { "Content-Type": "text/plain" }, 10, settings.token);
  assertEquals(text.status, 415);
});

Deno.test("a JSON body over 1 MiB → 413 as soon as the limit is passed, also without Content-Length", async () => {
  for (
    const [path, token] of [["/v1/auth/login", undefined], [
      "/v1/locations",
      settings.token,
    ]] as const
  ) {
    const res = await send(path, JSON_TYPE, 50 * MIB, token);
    assertEquals(res.status, 413, path);
    assertEquals(res.body.code, "payload_too_large");
    assert(res.pulled <= MIB + 2 * CHUNK, `${path} read ${res.pulled} bytes`);
  }
  const declared = await send(
    "/v1/locations",
    { ...JSON_TYPE, "Content-Length": String(50 * MIB) },
    50 * MIB,
    settings.token,
  );
  assertEquals(declared.status, 413);
  assert(declared.pulled <= CHUNK, `a declared length over the limit read ${declared.pulled}`);
  // Exactly at the limit is still read (and then judged by the schema).
  const name = "x".repeat(MIB - 20);
  const atLimit = await api(t.app, "POST", "/v1/locations", {
    token: settings.token,
    body: { name },
  });
  assertEquals(atLimit.status, 400, "read, then refused by the schema");
});

Deno.test("the permission check runs before any body is read, Idempotency-Key or not", async () => {
  for (const headers of [MULTIPART, JSON_TYPE]) {
    const keyed = { ...headers, "Idempotency-Key": `forbidden-${headers["Content-Type"]}` };
    const forbidden = await send("/v1/transactions", keyed, 200 * MIB, nobody.token);
    assertEquals(forbidden.status, 403);
    assertEquals(forbidden.body.code, "forbidden");
    assert(forbidden.pulled <= CHUNK, `403 after reading ${forbidden.pulled} bytes`);
    const anonymous = await send("/v1/transactions", keyed, 200 * MIB);
    assertEquals(anonymous.status, 401);
    assert(anonymous.pulled <= CHUNK, `401 after reading ${anonymous.pulled} bytes`);
  }
  const upload = await send("/v1/files", MULTIPART, 200 * MIB, nobody.token);
  assertEquals(upload.status, 403);
  assert(upload.pulled <= CHUNK, `upload 403 after reading ${upload.pulled} bytes`);
  const rows = await t.deps.db.selectFrom("idempotency_keys").select("key")
    .where("key", "like", "forbidden-%").execute();
  assertEquals(rows.length, 0, "nothing was claimed for a refused caller");
});

Deno.test("with Idempotency-Key the limit holds on JSON routes and on routes that take no body", async () => {
  const keyed = { ...JSON_TYPE, "Idempotency-Key": "too-large-sale" };
  const sale = await send("/v1/transactions", keyed, 50 * MIB, cashier.token);
  assertEquals(sale.status, 413);
  assert(sale.pulled <= MIB + 2 * CHUNK, `read ${sale.pulled} bytes`);
  const bodiless = await send(
    `/v1/tax-exemptions/${UNKNOWN_ID}/approve`,
    { ...JSON_TYPE, "Idempotency-Key": "too-large-approve" },
    50 * MIB,
    approver.token,
  );
  assertEquals(bodiless.status, 413);
  assert(bodiless.pulled <= MIB + 2 * CHUNK, `read ${bodiless.pulled} bytes`);
  const rows = await t.deps.db.selectFrom("idempotency_keys").select("key")
    .where("key", "like", "too-large-%").execute();
  assertEquals(rows.length, 0);
});

Deno.test("an upload over upload.maxBytes plus the multipart overhead → 413 while it is read", async () => {
  const limit = (await api(t.app, "GET", "/v1/config", { token: settings.token })).body.upload
    .maxBytes as number;
  const res = await send(
    "/v1/files",
    { ...MULTIPART, "Idempotency-Key": "too-large-upload" },
    limit + 20 * MIB,
    uploader.token,
  );
  assertEquals(res.status, 413);
  assertEquals(res.body.code, "payload_too_large");
  assert(res.pulled <= limit + 64 * 1024 + 2 * CHUNK, `read ${res.pulled} bytes`);
});

Deno.test("the OpenAPI document states the body rules", async () => {
  const doc = (await api(t.app, "GET", "/v1/openapi.json")).body;
  const text = JSON.stringify(doc.info.description);
  for (const phrase of ["413", "415", "1 MiB"]) {
    assert(text.includes(phrase), `the description mentions ${phrase}`);
  }
  const upload = JSON.stringify(doc.paths["/v1/files"].post);
  assert(upload.includes("413") && upload.includes("415"));
});

/** One raw HTTP/1.1 request over TCP to a real listener serving the app; the status line. */
async function rawRequest(head: string, body = ""): Promise<string> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      await conn.write(new TextEncoder().encode(`${head}\r\nConnection: close\r\n\r\n${body}`));
      const answer = new Uint8Array(4096);
      const n = await conn.read(answer);
      return new TextDecoder().decode(answer.subarray(0, n ?? 0)).split("\r\n")[0]!;
    } finally {
      conn.close();
    }
  } finally {
    await server.shutdown();
  }
}

Deno.test("a POST that declares no body (curl -X POST) reaches a route that takes none: no 415", async () => {
  const path = `/v1/tax-exemptions/${UNKNOWN_ID}/approve`;
  const auth = `Authorization: Bearer ${approver.token}`;
  const bare = await rawRequest(`POST ${path} HTTP/1.1\r\nHost: shop.test\r\n${auth}`);
  assertEquals(bare, "HTTP/1.1 404 Not Found", "the route ran: the exemption does not exist");
  // A body that is declared is still checked for its type.
  const declared = await rawRequest(
    `POST ${path} HTTP/1.1\r\nHost: shop.test\r\n${auth}\r\nContent-Type: text/plain\r\n` +
      "Content-Length: 5",
    "hello",
  );
  assertEquals(declared, "HTTP/1.1 415 Unsupported Media Type");
});

Deno.test("a write that takes no body refuses one like an unknown field (400), and takes {} or nothing", async () => {
  const path = `/v1/tax-exemptions/${UNKNOWN_ID}/approve`;
  const post = (body?: string) =>
    t.app.request(path, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${approver.token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body,
    });
  const withField = await post(JSON.stringify({ note: "approved on the phone" }));
  assertEquals(withField.status, 400);
  const problem = await withField.json();
  assertEquals(problem.code, "validation_failed");
  assertEquals(problem.errors, [{ path: "note", message: 'Unknown field "note"' }]);
  for (const odd of ["[1]", '"approve"', "null", "7"]) {
    const res = await post(odd);
    assertEquals(res.status, 400, odd);
    assertEquals((await res.json()).code, "validation_failed", odd);
  }
  const notJson = await post("{approve");
  assertEquals(notJson.status, 400);
  assertEquals((await notJson.json()).code, "bad_request");
  // Nothing, an empty body or `{}`: the route runs (the exemption does not exist).
  for (const none of [undefined, "", "  ", "{}"]) {
    const res = await post(none);
    assertEquals(res.status, 404, JSON.stringify(none));
    await res.body?.cancel();
  }
  // The same with an Idempotency-Key: the body is refused before any work.
  const keyed = await t.app.request(path, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${approver.token}`,
      "Content-Type": "application/json",
      "Idempotency-Key": "no-body-route-1",
    },
    body: JSON.stringify({ approved: true }),
  });
  assertEquals(keyed.status, 400);
  assertEquals((await keyed.json()).errors, [{
    path: "approved",
    message: 'Unknown field "approved"',
  }]);
});
