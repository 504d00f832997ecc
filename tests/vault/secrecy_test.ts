/**
 * The vault's promises, checked where a secret could leak (issue 18 deliverable 6): no secret,
 * note or master password in any response but the reveal, in any log line (the test logger
 * keeps every level, debug included), in error bodies, in the Idempotency-Key replay table, or
 * anywhere in the database (every table dumped and searched, plain, base64 and hex); a tampered
 * ciphertext, IV or associated data never decrypts; a reveal that cannot be audited reveals
 * nothing.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type ApiResponse, type TestApp } from "../_helpers/test_app.ts";
import { sql } from "../_helpers/test_db.ts";
import { toBase64 } from "../../domain/base64.ts";
import {
  assertProblem,
  call,
  createCategory,
  createEntry,
  lock,
  reveal,
  unlock,
  vaultSuite,
  type VaultUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: VaultUsers;
vaultSuite((s) => ({ t, u } = s));

const MASTER = "Tr0ub4dor&3 horse battery";
const NEXT_MASTER = "the owner's second master password";
const SECRET = "Sup3r-Secret-Alarm-Code-90210";
const NOTES = "Recovery words: velvet orbit lantern";
const OTHER_SECRET = "another-secret-for-the-patch-77";
const secrets = [MASTER, NEXT_MASTER, SECRET, NOTES, OTHER_SECRET];

/**
 * Every answer body seen but the reveals'; an entry's own record (create, detail, change)
 * carries its notes, nothing else does.
 */
const bodies: Array<{ text: string; record: boolean }> = [];

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const res = await api(t.app, method, path, { token: u.admin.token, body, headers });
  const record = /^\/v1\/vault\/entries(\/[^/]+)?$/.test(path) && method !== "GET" ||
    /^\/v1\/vault\/entries\/[^/]+$/.test(path);
  if (!path.endsWith("/reveal") || res.status !== 200) {
    bodies.push({ text: res.text, record: record && res.status < 300 });
  }
  return res;
}

function encodings(text: string): string[] {
  const bytes = new TextEncoder().encode(text);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return [text, toBase64(bytes), hex];
}

async function dumpDatabase(): Promise<string> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`.execute(t.deps.db);
  assert(tables.some((r) => r.name === "vault_entries"));
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ dump: string | null }>`
      SELECT string_agg(row_to_json(x)::text, E'\n') AS dump FROM ${sql.table(name)} x`
      .execute(t.deps.db);
    parts.push(`${name}: ${rows[0]?.dump ?? ""}`);
  }
  return parts.join("\n");
}

Deno.test("a whole day of the vault, with mistakes: no secret in responses, errors, logs or the database", async () => {
  const keyed = (key: string) => ({ "Idempotency-Key": key });
  assertEquals(
    (await send("POST", "/v1/vault/initialize", { masterPassword: MASTER }, keyed("k-init")))
      .status,
    201,
  );
  const category = await createCategory(t, u.admin, "Shop");
  const created = await send("POST", "/v1/vault/entries", {
    categoryId: category.id,
    name: "Alarm",
    notes: NOTES,
    secret: SECRET,
  }, keyed("k-create"));
  assertEquals(created.status, 201, created.text);
  const id = created.body.id;
  assertEquals(created.body.notes, NOTES);

  // Mistakes whose requests carry secrets.
  assertProblem(
    await send("POST", "/v1/vault/entries", {
      categoryId: crypto.randomUUID(),
      name: "x",
      secret: SECRET,
    }),
    400,
    "invalid_reference",
  );
  assertProblem(
    await send("POST", "/v1/vault/entries", {
      categoryId: category.id,
      secret: SECRET,
      notes: NOTES,
    }),
    400,
    "validation_failed",
  );
  assertProblem(
    await send("PATCH", `/v1/vault/entries/${id}`, { secret: OTHER_SECRET, name: "" }),
    400,
    "validation_failed",
  );
  assertProblem(
    await send("POST", "/v1/vault/unlock", { masterPassword: `${MASTER}x` }, keyed("k-wrong")),
    400,
    "invalid_master_password",
  );
  assertProblem(
    await send("POST", "/v1/vault/initialize", { masterPassword: MASTER }),
    409,
    "already_initialized",
  );
  // Reads, a reveal with a key, a change, lock and the 423 answers.
  await send("GET", "/v1/vault/entries");
  await send("GET", `/v1/vault/entries/${id}`);
  const revealed = await send(
    "POST",
    `/v1/vault/entries/${id}/reveal`,
    undefined,
    keyed("k-reveal"),
  );
  assertEquals([revealed.status, revealed.body.secret], [200, SECRET]);
  assertEquals(revealed.headers.get("Cache-Control"), "no-store");
  assertEquals(
    (await send("PATCH", `/v1/vault/entries/${id}`, { secret: OTHER_SECRET })).status,
    200,
  );
  assertEquals(
    (await send("POST", "/v1/vault/change-master-password", {
      currentPassword: MASTER,
      newPassword: NEXT_MASTER,
    }, keyed("k-change"))).status,
    204,
  );
  await lock(t, u.admin);
  assertProblem(
    await send(
      "POST",
      "/v1/vault/entries",
      { categoryId: category.id, name: "x", secret: SECRET },
      keyed("k-locked"),
    ),
    423,
    "vault_locked",
  );
  assertProblem(await send("POST", `/v1/vault/entries/${id}/reveal`), 423, "vault_locked");
  assertEquals(
    (await send("POST", "/v1/vault/unlock", { masterPassword: NEXT_MASTER }, keyed("k-unlock")))
      .status,
    204,
  );
  assertEquals(await reveal(t, u.admin, id), OTHER_SECRET);

  const seen = [...bodies, ...t.logLines.map((text) => ({ text, record: false }))];
  for (const { text, record } of seen) {
    for (const secret of secrets.filter((s) => !(record && s === NOTES))) {
      assert(!text.includes(secret), `"${secret}" leaked into: ${text}`);
    }
  }
  assert(t.logLines.length > 10, "the requests were logged");
  const dump = await dumpDatabase();
  for (const secret of secrets) {
    for (const encoded of encodings(secret)) {
      assert(!dump.includes(encoded), `the database holds "${secret}" (as ${encoded})`);
    }
  }
  // Nothing of those requests was kept for replay (not even a hash of a body with a password).
  const kept = await t.deps.db.selectFrom("idempotency_keys").select("key")
    .where("key", "like", "k-%").execute();
  assertEquals(kept, []);
});

/** Changes one byte of the base64 part `part` (1: IV, 2: ciphertext and tag) of a sealed text. */
function flipped(sealed: string, part: 1 | 2): string {
  const parts = sealed.split(".");
  const bytes = Uint8Array.from(atob(parts[part]!), (c) => c.charCodeAt(0));
  bytes[3] = bytes[3]! ^ 0x40;
  parts[part] = toBase64(bytes);
  return parts.join(".");
}

async function sealedOf(id: string): Promise<string> {
  const row = await t.deps.db.selectFrom("vault_entries").select("secret_sealed")
    .where("id", "=", id).executeTakeFirstOrThrow();
  return row.secret_sealed;
}

async function setSealed(id: string, sealed: string): Promise<void> {
  await t.deps.db.updateTable("vault_entries").set({ secret_sealed: sealed }).where("id", "=", id)
    .execute();
}

async function assertRevealFails(id: string, secret: string): Promise<void> {
  const res = await api(t.app, "POST", `/v1/vault/entries/${id}/reveal`, { token: u.admin.token });
  assertProblem(res, 500, "internal");
  assert(!res.text.includes(secret));
}

Deno.test("a tampered ciphertext, IV or associated data (row moved, ciphertext swapped) never decrypts", async () => {
  const category = await createCategory(t, u.admin);
  const elsewhere = await createCategory(t, u.admin);
  const a = await createEntry(t, u.admin, { categoryId: category.id, secret: "secret of A" });
  const b = await createEntry(t, u.admin, { categoryId: category.id, secret: "secret of B" });
  const original = await sealedOf(a.id);
  const logged = t.logLines.length;

  for (
    const tampered of [flipped(original, 1), flipped(original, 2), original.slice(0, -6) + "AAAA"]
  ) {
    await setSealed(a.id, tampered);
    await assertRevealFails(a.id, "secret of A");
  }
  // B's ciphertext in A's row (another entry id as associated data).
  await setSealed(a.id, await sealedOf(b.id));
  await assertRevealFails(a.id, "secret of B");
  // A's row moved to another category behind the vault's back.
  await setSealed(a.id, original);
  assertEquals(await reveal(t, u.admin, a.id), "secret of A");
  await t.deps.db.updateTable("vault_entries").set({ category_id: elsewhere.id })
    .where("id", "=", a.id).execute();
  await assertRevealFails(a.id, "secret of A");
  await t.deps.db.updateTable("vault_entries").set({ category_id: category.id })
    .where("id", "=", a.id).execute();
  assertEquals(await reveal(t, u.admin, a.id), "secret of A");

  const failures = t.logLines.slice(logged).filter((l) =>
    l.includes("vault entry failed its integrity check")
  );
  assertEquals(failures.length, 5);
  assert(failures.every((l) => l.includes(a.id) && !l.includes("secret of")));
  const audited = await t.deps.db.selectFrom("audit_log").select(["action", "details"])
    .where("entity_id", "=", a.id).where("action", "like", "vault.entry_%")
    .where("action", "<>", "vault.entry_created").orderBy("at").orderBy("id").execute();
  // Every read of the sealed secret is audited by the read's own statement; each that then
  // failed to open is followed by its integrity failure (with no secret in its details).
  const [revealed, failed] = ["vault.entry_revealed", "vault.entry_integrity_failed"];
  assertEquals(audited.map((e) => e.action), [
    ...[revealed, failed, revealed, failed, revealed, failed], // the three tampered ciphertexts
    revealed,
    failed, // B's ciphertext in A's row
    revealed, // the original
    revealed,
    failed, // the row moved to another category
    revealed, // moved back
  ]);
  assert(audited.every((e) => !JSON.stringify(e.details).includes("secret of")));
});

Deno.test("a tampered wrapped data key opens nothing: the right master password is refused", async () => {
  const config = await t.deps.db.selectFrom("vault_config").select("wrapped_key")
    .executeTakeFirstOrThrow();
  await lock(t, u.admin);
  await t.deps.db.updateTable("vault_config").set({ wrapped_key: flipped(config.wrapped_key, 2) })
    .execute();
  try {
    assertProblem(
      await api(t.app, "POST", "/v1/vault/unlock", {
        token: u.editor.token,
        body: { masterPassword: NEXT_MASTER },
      }),
      400,
      "invalid_master_password",
    );
  } finally {
    await t.deps.db.updateTable("vault_config").set({ wrapped_key: config.wrapped_key }).execute();
  }
  await unlock(t, u.admin, NEXT_MASTER);
});

Deno.test("if the reveal's audit entry cannot be written, the secret is not returned", async () => {
  const category = await createCategory(t, u.admin);
  const entry = await createEntry(t, u.admin, { categoryId: category.id, secret: "unaudited!" });
  await sql`ALTER TABLE audit_log ADD CONSTRAINT vault_test_no_reveals
    CHECK (action <> 'vault.entry_revealed') NOT VALID`.execute(t.deps.db);
  try {
    const res = await api(t.app, "POST", `/v1/vault/entries/${entry.id}/reveal`, {
      token: u.admin.token,
    });
    assertProblem(res, 500, "internal");
    assert(!res.text.includes("unaudited!"));
  } finally {
    await sql`ALTER TABLE audit_log DROP CONSTRAINT vault_test_no_reveals`.execute(t.deps.db);
  }
  assertEquals(await reveal(t, u.admin, entry.id), "unaudited!");
});

Deno.test("the vault keeps working after its own tests' tampering (sanity)", async () => {
  const status = await call(t, u.viewer, "GET", "/v1/vault/status");
  assertEquals(status, { initialized: true, locked: false });
});
