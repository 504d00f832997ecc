/**
 * The real server (`main.ts`, a child process on the embedded database, LOG_LEVEL=debug):
 * after a restart — a clean SIGTERM, and a kill -9 — the vault is locked, and the same master
 * password opens the same secrets. No secret, note or master password appears in anything the
 * processes printed, nor in a dump of the database afterwards.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  embeddedRunTest,
  prepareDataDir,
  removeDir,
  type ServerProcess,
  startServer,
} from "../_helpers/processes.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { sql } from "kysely";

const MASTER = "restart-proof master password";
const SECRET = "Alarm-Code-Restart-31337";
const NOTES = "Spare key under the third flower pot";
const ENV = { LOG_LEVEL: "debug", DEV_BYPASS: "true", VAULT_KDF_ITERATIONS: "600000" };

let dataDir: string;
let adminEmail: string;
/** Everything every server process printed. */
const printed: string[] = [];

embeddedRunTest.beforeAll(async () => {
  ({ dataDir, adminEmail } = await prepareDataDir());
});
embeddedRunTest.afterAll(async () => {
  await removeDir(dataDir);
});

async function start(): Promise<ServerProcess> {
  return await startServer({ dataDir, env: ENV });
}

async function stop(server: ServerProcess, signal: Deno.Signal): Promise<number> {
  server.kill(signal);
  const status = await server.status;
  printed.push(...server.lines, server.stderr());
  return status.code;
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function send(
  server: ServerProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { "X-Dev-User": adminEmail, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function expectStatus(
  server: ServerProcess,
  expected: { initialized: boolean; locked: boolean },
) {
  const res = await send(server, "GET", "/vault/status");
  assertEquals(res.body, expected);
}

async function revealed(server: ServerProcess, id: string): Promise<string> {
  const res = await send(server, "POST", `/vault/entries/${id}/reveal`);
  assertEquals(res.status, 200, JSON.stringify(res.body));
  return res.body.secret;
}

embeddedRunTest({
  name:
    "after SIGTERM and after kill -9 the vault is locked, and the same master password opens the same secrets",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    let server = await start();
    await expectStatus(server, { initialized: false, locked: true });
    assertEquals(
      (await send(server, "POST", "/vault/initialize", { masterPassword: MASTER })).status,
      201,
    );
    const category = await send(server, "POST", "/vault/categories", { name: "Shop" });
    const entry = await send(server, "POST", "/vault/entries", {
      categoryId: category.body.id,
      name: "Alarm",
      notes: NOTES,
      secret: SECRET,
    });
    assertEquals(entry.status, 201);
    const id = entry.body.id;
    assertEquals(await revealed(server, id), SECRET);
    assertEquals(await stop(server, "SIGTERM"), 0);

    server = await start();
    await expectStatus(server, { initialized: true, locked: true });
    const locked = await send(server, "POST", `/vault/entries/${id}/reveal`);
    assertEquals([locked.status, locked.body.code], [423, "vault_locked"]);
    assertEquals(
      (await send(server, "POST", "/vault/unlock", { masterPassword: "wrong password!" })).status,
      400,
    );
    assertEquals(
      (await send(server, "POST", "/vault/unlock", { masterPassword: MASTER })).status,
      204,
    );
    assertEquals(await revealed(server, id), SECRET);
    await stop(server, "SIGKILL");

    server = await start();
    await expectStatus(server, { initialized: true, locked: true });
    assertEquals(
      (await send(server, "POST", "/vault/unlock", { masterPassword: MASTER })).status,
      204,
    );
    assertEquals(await revealed(server, id), SECRET);
    const detail = await send(server, "GET", `/vault/entries/${id}`);
    assertEquals(detail.body.notes, NOTES);
    assertEquals(await stop(server, "SIGTERM"), 0);

    const output = printed.join("\n");
    assert(output.includes('"path":"/v1/vault/unlock"'), "the request logs were read");
    for (const secret of [MASTER, SECRET, NOTES]) {
      assert(!output.includes(secret), `a server process printed "${secret}"`);
    }
    const handle = await openDatabase({ dataDir });
    try {
      const { rows: tables } = await sql<{ name: string }>`
        SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(handle.db);
      for (const { name } of tables) {
        const { rows } = await sql<{ dump: string | null }>`
          SELECT string_agg(row_to_json(x)::text, E'\n') AS dump FROM ${sql.table(name)} x`
          .execute(handle.db);
        for (const secret of [MASTER, SECRET, NOTES]) {
          assert(!(rows[0]?.dump ?? "").includes(secret), `table ${name} holds "${secret}"`);
        }
      }
    } finally {
      await handle.close();
    }
  },
});
