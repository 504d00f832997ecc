/**
 * Vault entries (API §12): create, read, change, move, delete with edit level; list filters,
 * search and sort; the secret only through the audited reveal (`Cache-Control: no-store`);
 * odd input refused.
 */
import { assert, assertEquals, assertNotEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  assertProblem,
  call,
  createCategory,
  createEntry,
  grant,
  initVault,
  reveal,
  vaultSuite,
  type VaultUsers,
} from "./_fixtures.ts";

let t: TestApp;
let u: VaultUsers;
let shared: { id: string; name: string };
vaultSuite(async (s) => {
  ({ t, u } = s);
  await initVault(t, u.admin);
  shared = await createCategory(t, u.admin, "Shared");
  await grant(t, u.admin, shared.id, { userId: u.editor.id }, "edit");
  await grant(t, u.admin, shared.id, { userId: u.viewer.id }, "view");
});

const FIELDS = [
  "id",
  "categoryId",
  "name",
  "username",
  "url",
  "createdBy",
  "updatedBy",
  "createdAt",
  "updatedAt",
];

Deno.test("create → 201 with the record and its notes, never the secret; detail likewise", async () => {
  const created = await createEntry(t, u.editor, {
    categoryId: shared.id,
    name: "  Card terminal  ",
    username: "admin",
    url: "https://terminal.local",
    notes: "Reset code is on the back",
    secret: "  spaces kept  ",
  });
  assertEquals(Object.keys(created).sort(), [...FIELDS, "notes"].sort());
  assertEquals(
    [created.name, created.username, created.url, created.notes, created.createdBy],
    ["Card terminal", "admin", "https://terminal.local", "Reset code is on the back", u.editor.id],
  );
  const detail = await api(t.app, "GET", `/v1/vault/entries/${created.id}`, {
    token: u.viewer.token,
  });
  assertEquals(detail.status, 200);
  assertEquals(detail.body, created);
  assertEquals(detail.headers.get("Cache-Control"), "no-store");
  assert(!detail.text.includes("spaces kept"));
  assertEquals(await reveal(t, u.viewer, created.id), "  spaces kept  ");
  const revealed = await t.deps.db.selectFrom("audit_log").select(["actor_id", "details"])
    .where("action", "=", "vault.entry_revealed").where("entity_id", "=", created.id)
    .executeTakeFirstOrThrow();
  assertEquals(revealed.actor_id, u.viewer.id);
  assertEquals(revealed.details, { name: "Card terminal", categoryId: shared.id });
});

Deno.test("create refuses odd input: missing or empty secret, unknown fields, NUL, oversize", async () => {
  const base = { categoryId: shared.id, name: "Odd", secret: "s" };
  for (
    const body of [
      { categoryId: shared.id, name: "No secret" },
      { ...base, secret: "" },
      { ...base, name: "   " },
      { ...base, secret: "x".repeat(10_001) },
      { ...base, url: "u".repeat(2001) },
      { ...base, notes: "n".repeat(10_001) },
      { ...base, id: crypto.randomUUID() },
      { ...base, secretSealed: "v1.AAAA.AAAA" },
      { ...base, name: "nul\u0000name" },
      { ...base, secret: "nul\u0000secret" },
      { ...base, categoryId: "not-a-uuid" },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/vault/entries", { token: u.editor.token, body });
    assertProblem(res, 400, "validation_failed");
  }
  assertProblem(
    await api(t.app, "POST", "/v1/vault/entries", {
      token: u.editor.token,
      body: { ...base, categoryId: crypto.randomUUID() },
    }),
    400,
    "invalid_reference",
  );
  assertProblem(
    await api(t.app, "POST", "/v1/vault/entries", { token: u.viewer.token, body: base }),
    403,
    "forbidden",
  );
});

Deno.test("the list never holds the secret or the notes; filters, search and sort", async () => {
  const other = await createCategory(t, u.admin);
  const tag = crypto.randomUUID().slice(0, 8);
  const made = [
    await createEntry(t, u.admin, {
      categoryId: shared.id,
      name: `Bank ${tag}`,
      username: "owner",
      secret: "list-secret-1",
      notes: "list-notes-1",
    }),
    await createEntry(t, u.admin, {
      categoryId: shared.id,
      name: `Alarm ${tag}`,
      url: `https://alarm.example/${tag}_100%`,
      secret: "list-secret-2",
    }),
    await createEntry(t, u.admin, {
      categoryId: other.id,
      name: `Cloud ${tag}`,
      secret: "list-secret-3",
    }),
  ];
  const all = await api(t.app, "GET", `/v1/vault/entries?q=${tag}&sort=name`, {
    token: u.admin.token,
  });
  assertEquals(all.status, 200);
  assertEquals(all.headers.get("Cache-Control"), "no-store");
  assertEquals(all.body.data.map((e: { name: string }) => e.name), [
    `Alarm ${tag}`,
    `Bank ${tag}`,
    `Cloud ${tag}`,
  ]);
  for (const item of all.body.data) assertEquals(Object.keys(item).sort(), [...FIELDS].sort());
  for (const secret of ["list-secret", "list-notes"]) assert(!all.text.includes(secret));

  const byCategory = await call(t, u.admin, "GET", `/v1/vault/entries?categoryId=${other.id}`);
  assertEquals(byCategory.data.map((e: { id: string }) => e.id), [made[2].id]);
  const byUser = await call(t, u.admin, "GET", `/v1/vault/entries?q=OWNER&categoryId=${shared.id}`);
  assert(byUser.data.some((e: { id: string }) => e.id === made[0].id));
  const byUrl = await call(t, u.admin, "GET", `/v1/vault/entries?q=${tag}_100%25`);
  assertEquals(byUrl.data.map((e: { id: string }) => e.id), [made[1].id], "_ and % are literal");
  const desc = await call(
    t,
    u.admin,
    "GET",
    `/v1/vault/entries?q=${tag}&sort=createdAt&order=desc&limit=1&page=2`,
  );
  assertEquals(desc.data.map((e: { id: string }) => e.id), [made[1].id]);
  assertEquals(desc.pagination, { page: 2, limit: 1, total: 3, totalPages: 3, totalExact: true });
  // The viewer sees only the shared category's entries.
  const asViewer = await call(t, u.viewer, "GET", `/v1/vault/entries?q=${tag}`);
  assertEquals(asViewer.pagination.total, 2);
  for (
    const query of [
      "sort=secret",
      "order=up",
      "page=0",
      "limit=-1",
      "categoryId=nope",
      "q=a%00b",
      "extra=1",
    ]
  ) {
    assertProblem(
      await api(t.app, "GET", `/v1/vault/entries?${query}`, { token: u.admin.token }),
      400,
      "validation_failed",
    );
  }
});

Deno.test("change: fields, null clears, a new secret; moving re-seals for the new category", async () => {
  const target = await createCategory(t, u.admin);
  const entry = await createEntry(t, u.editor, {
    categoryId: shared.id,
    username: "old",
    notes: "old notes",
    secret: "first secret",
  });
  const changed = await call(t, u.editor, "PATCH", `/v1/vault/entries/${entry.id}`, {
    name: "Renamed",
    username: null,
    notes: null,
  });
  assertEquals([changed.name, changed.username, changed.notes], ["Renamed", null, null]);
  assertEquals(await reveal(t, u.editor, entry.id), "first secret", "the secret is unchanged");
  await call(t, u.editor, "PATCH", `/v1/vault/entries/${entry.id}`, {
    secret: "second secret",
    notes: "new notes",
  });
  assertEquals(await reveal(t, u.editor, entry.id), "second secret");

  // A move needs edit level on the target too: the editor has none on `target`.
  assertProblem(
    await api(t.app, "PATCH", `/v1/vault/entries/${entry.id}`, {
      token: u.editor.token,
      body: { categoryId: target.id },
    }),
    400,
    "invalid_reference",
  );
  const before = await t.deps.db.selectFrom("vault_entries").select([
    "secret_sealed",
    "notes_sealed",
  ])
    .where("id", "=", entry.id).executeTakeFirstOrThrow();
  const moved = await call(t, u.admin, "PATCH", `/v1/vault/entries/${entry.id}`, {
    categoryId: target.id,
  });
  assertEquals([moved.categoryId, moved.notes, moved.updatedBy], [
    target.id,
    "new notes",
    u.admin.id,
  ]);
  const after = await t.deps.db.selectFrom("vault_entries").select([
    "secret_sealed",
    "notes_sealed",
  ])
    .where("id", "=", entry.id).executeTakeFirstOrThrow();
  assertNotEquals(after.secret_sealed, before.secret_sealed);
  assertNotEquals(after.notes_sealed, before.notes_sealed);
  assertEquals(await reveal(t, u.admin, entry.id), "second secret");
  assertEquals((await call(t, u.admin, "GET", `/v1/vault/entries/${entry.id}`)).notes, "new notes");
  // Now outside the editor's categories: 404 for them.
  assertProblem(
    await api(t.app, "GET", `/v1/vault/entries/${entry.id}`, { token: u.editor.token }),
    404,
    "not_found",
  );
  assertProblem(
    await api(t.app, "PATCH", `/v1/vault/entries/${entry.id}`, {
      token: u.editor.token,
      body: { secret: "" },
    }),
    400,
    "validation_failed",
  );
});

Deno.test("delete: edit level; afterwards 404 everywhere; unknown and malformed ids → 404", async () => {
  const entry = await createEntry(t, u.editor, { categoryId: shared.id });
  assertProblem(
    await api(t.app, "DELETE", `/v1/vault/entries/${entry.id}`, { token: u.viewer.token }),
    403,
    "forbidden",
  );
  await call(t, u.editor, "DELETE", `/v1/vault/entries/${entry.id}`);
  for (
    const id of [entry.id, crypto.randomUUID(), "nope", "00000000-0000-0000-0000-00000000000g"]
  ) {
    for (
      const [method, path] of [
        ["GET", `/v1/vault/entries/${id}`],
        ["DELETE", `/v1/vault/entries/${id}`],
        ["POST", `/v1/vault/entries/${id}/reveal`],
        ["PATCH", `/v1/vault/entries/${id}`],
      ] as const
    ) {
      const res = await api(t.app, method, path, {
        token: u.admin.token,
        body: method === "PATCH" ? { name: "x" } : undefined,
      });
      assertProblem(res, 404, "not_found");
    }
  }
  const gone = await t.deps.db.selectFrom("vault_entries").select("id").where("id", "=", entry.id)
    .execute();
  assertEquals(gone, [], "the row (and its sealed secret) is gone");
});
