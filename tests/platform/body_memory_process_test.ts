/**
 * Memory exhaustion (issue 15 item 2) against the real server process: oversized bodies
 * (256 MB streams, no Content-Length) sent to every kind of route — public JSON, protected JSON,
 * a caller without the permission (with an Idempotency-Key), a route that takes no body, the
 * upload route, an unknown route — are refused (401/403/404/413/415) while the server's
 * resident memory (read from /proc/<pid>/status) stays bounded: under 300 MB on PostgreSQL, and
 * within 150 MB of its idle size on the embedded engine (PGlite alone takes ~340 MB there).
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { prepareDataDir, removeDir, startServer } from "../_helpers/processes.ts";
import { createTestDatabase, type TestDatabase, testServerUrl } from "../_helpers/test_db.ts";

const ignore = Deno.build.os !== "linux";
const MIB = 1024 * 1024;
const BODY_BYTES = 256 * MIB;
const ABSOLUTE_LIMIT_MB = 300;
const GROWTH_LIMIT_MB = 150;

function residentMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** `total` bytes produced on demand (the client holds one chunk). */
function hugeBody(total: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MIB).fill(0x7b);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
}

/** A database of the test's own on PostgreSQL (when configured), with the admin user. */
async function postgresTarget(adminEmail: string): Promise<TestDatabase> {
  const database = await createTestDatabase();
  const id = crypto.randomUUID();
  await database.db.insertInto("users").values({
    id,
    email: adminEmail,
    first_name: "Ada",
    last_name: "Admin",
    employee_number: "0001",
  }).execute();
  const role = await database.db.selectFrom("roles").select("id").where("slug", "=", "admin")
    .executeTakeFirstOrThrow();
  await database.db.insertInto("user_roles").values({ user_id: id, role_id: role.id }).execute();
  return database;
}

Deno.test({
  name:
    "the server's memory stays bounded while it refuses oversized bodies on every kind of route",
  ignore,
  sanitizeResources: false,
  async fn() {
    const { dataDir, adminEmail } = await prepareDataDir();
    const postgres = testServerUrl() ? await postgresTarget(adminEmail) : undefined;
    const server = await startServer({
      dataDir,
      env: {
        DEV_BYPASS: "true",
        AUTH_RATE_LIMIT: "off",
        ...(postgres ? { DATABASE_URL: postgres.url! } : {}),
      },
    });
    let peak = 0;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, residentMb(server.pid));
      } catch {
        // The process is gone; the requests will fail and say so.
      }
    }, 10);
    try {
      const asAdmin = { "X-Dev-User": adminEmail };
      const staff = await fetch(`${server.url}/v1/users`, {
        method: "POST",
        headers: { ...asAdmin, "Content-Type": "application/json" },
        body: JSON.stringify({
          email: "nobody@example.test",
          firstName: "No",
          lastName: "Body",
          password: "correct horse battery",
        }),
      });
      assertEquals(staff.status, 201, await staff.text());
      const asNobody = { "X-Dev-User": "nobody@example.test" };
      const multipart = { "Content-Type": "multipart/form-data; boundary=x" };
      const json = { "Content-Type": "application/json" };
      const unknownId = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
      const cases: [string, string, Record<string, string>, number][] = [
        ["multipart to public login", "/v1/auth/login", multipart, 415],
        ["JSON to public login", "/v1/auth/login", json, 413],
        ["JSON to a protected route", "/v1/locations", { ...json, ...asAdmin }, 413],
        ["multipart to a protected JSON route", "/v1/locations", { ...multipart, ...asAdmin }, 415],
        [
          "multipart + Idempotency-Key without the permission",
          "/v1/transactions",
          { ...multipart, ...asNobody, "Idempotency-Key": "k1" },
          403,
        ],
        [
          "JSON + Idempotency-Key with the permission",
          "/v1/transactions",
          { ...json, ...asAdmin, "Idempotency-Key": "k2" },
          413,
        ],
        [
          "JSON + Idempotency-Key to a route without a body",
          `/v1/tax-exemptions/${unknownId}/approve`,
          { ...json, ...asAdmin, "Idempotency-Key": "k3" },
          413,
        ],
        ["an upload over the limit", "/v1/files", { ...multipart, ...asAdmin }, 413],
        ["an upload without the permission", "/v1/files", { ...multipart, ...asNobody }, 403],
        ["no token", "/v1/transactions", { ...multipart, "Idempotency-Key": "k4" }, 401],
        ["an unknown route", "/v1/nothing-here", multipart, 404],
      ];
      await new Promise((resolve) => setTimeout(resolve, 300));
      const idle = residentMb(server.pid);
      peak = idle;
      const send = async ([what, path, headers, expected]: typeof cases[number]) => {
        const res = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers,
          body: hugeBody(BODY_BYTES),
        });
        const text = await res.text();
        assertEquals(res.status, expected, `${what}: ${text}`);
      };
      for (const one of cases) await send(one);
      // And all at once.
      await Promise.all(cases.map(send));
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, residentMb(server.pid));
      const growth = peak - idle;
      console.log(`server RSS: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`);
      assert(
        growth < GROWTH_LIMIT_MB,
        `the server grew by ${growth.toFixed(0)} MB (idle ${idle.toFixed(0)}, peak ${
          peak.toFixed(0)
        })`,
      );
      if (postgres) {
        assert(peak < ABSOLUTE_LIMIT_MB, `the server's RSS reached ${peak.toFixed(0)} MB`);
      }
    } finally {
      clearInterval(sampler);
      server.kill("SIGTERM");
      await server.status;
      await postgres?.close();
      await removeDir(dataDir);
    }
  },
});
