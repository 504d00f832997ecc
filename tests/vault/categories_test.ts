/**
 * Vault categories and grants (API §12): CRUD by vault.admin, grants per role or user, and the
 * ceiling rule — effective level = min(granted, ceiling) with vault.view → view, vault.edit →
 * the grants decide, vault.admin → admin everywhere; no level → 404 for the category and its
 * entries.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
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
vaultSuite(async (s) => {
  ({ t, u } = s);
  await initVault(t, u.admin);
});

async function roleOf(userId: string): Promise<string> {
  const row = await t.deps.db.selectFrom("user_roles").select("role_id")
    .where("user_id", "=", userId).executeTakeFirstOrThrow();
  return row.role_id;
}

Deno.test("categories: vault.admin creates, renames and deletes; names are unique (any case)", async () => {
  const created = await call(t, u.admin, "POST", "/v1/vault/categories", {
    name: "  Suppliers  ",
    description: "Portal logins",
  });
  assertEquals([created.name, created.description, created.level], [
    "Suppliers",
    "Portal logins",
    "admin",
  ]);
  assertProblem(
    await api(t.app, "POST", "/v1/vault/categories", {
      token: u.admin.token,
      body: { name: "SUPPLIERS" },
    }),
    409,
    "duplicate",
  );
  assertProblem(
    await api(t.app, "POST", "/v1/vault/categories", {
      token: u.editor.token,
      body: { name: "Mine" },
    }),
    403,
    "forbidden",
  );
  for (
    const body of [{}, { name: "" }, { name: "x".repeat(101) }, { name: "a\u0000b" }, {
      name: "ok",
      id: crypto.randomUUID(),
    }]
  ) {
    assertProblem(
      await api(t.app, "POST", "/v1/vault/categories", { token: u.admin.token, body }),
      400,
      "validation_failed",
    );
  }
  const renamed = await call(t, u.admin, "PATCH", `/v1/vault/categories/${created.id}`, {
    name: "Supplier portals",
    description: null,
  });
  assertEquals([renamed.name, renamed.description], ["Supplier portals", null]);
  const other = await createCategory(t, u.admin, "Alarm");
  assertProblem(
    await api(t.app, "PATCH", `/v1/vault/categories/${other.id}`, {
      token: u.admin.token,
      body: { name: "supplier PORTALS" },
    }),
    409,
    "duplicate",
  );
  await call(t, u.admin, "DELETE", `/v1/vault/categories/${other.id}`);
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${other.id}`, { token: u.admin.token }),
    404,
    "not_found",
  );
  for (const id of ["not-a-uuid", crypto.randomUUID()]) {
    assertProblem(
      await api(t.app, "GET", `/v1/vault/categories/${id}`, { token: u.admin.token }),
      404,
      "not_found",
    );
  }
});

Deno.test("a category that holds entries cannot be deleted (409 in_use); its grants go with it", async () => {
  const category = await createCategory(t, u.admin);
  await grant(t, u.admin, category.id, { userId: u.viewer.id }, "view");
  const entry = await createEntry(t, u.admin, { categoryId: category.id });
  assertProblem(
    await api(t.app, "DELETE", `/v1/vault/categories/${category.id}`, { token: u.admin.token }),
    409,
    "in_use",
  );
  await call(t, u.admin, "DELETE", `/v1/vault/entries/${entry.id}`);
  await call(t, u.admin, "DELETE", `/v1/vault/categories/${category.id}`);
  const grants = await t.deps.db.selectFrom("vault_category_permissions").select("id")
    .where("category_id", "=", category.id).execute();
  assertEquals(grants, []);
});

Deno.test("the ceiling rule: effective level = min(grant, ceiling); no level → 404", async () => {
  const hidden = await createCategory(t, u.admin);
  const shared = await createCategory(t, u.admin);
  const secretEntry = await createEntry(t, u.admin, { categoryId: hidden.id, secret: "hidden!" });
  const sharedEntry = await createEntry(t, u.admin, { categoryId: shared.id, secret: "shared!" });
  await grant(t, u.admin, shared.id, { userId: u.viewer.id }, "admin");
  await grant(t, u.admin, shared.id, { userId: u.editor.id }, "view");

  // vault.view with an admin grant: view.
  const asViewer = await call(t, u.viewer, "GET", `/v1/vault/categories/${shared.id}`);
  assertEquals(asViewer.level, "view");
  assertEquals(await reveal(t, u.viewer, sharedEntry.id), "shared!");
  // vault.edit with a view grant: view (cannot create or change entries there).
  assertEquals((await call(t, u.editor, "GET", `/v1/vault/categories/${shared.id}`)).level, "view");
  assertProblem(
    await api(t.app, "POST", "/v1/vault/entries", {
      token: u.editor.token,
      body: { categoryId: shared.id, name: "n", secret: "s" },
    }),
    403,
    "forbidden",
  );
  assertProblem(
    await api(t.app, "PATCH", `/v1/vault/entries/${sharedEntry.id}`, {
      token: u.editor.token,
      body: { name: "renamed" },
    }),
    403,
    "forbidden",
  );
  // No grant: the category and its entries do not exist for them.
  for (const user of [u.viewer, u.editor]) {
    for (
      const [method, path] of [
        ["GET", `/v1/vault/categories/${hidden.id}`],
        ["GET", `/v1/vault/entries/${secretEntry.id}`],
        ["POST", `/v1/vault/entries/${secretEntry.id}/reveal`],
      ] as const
    ) {
      assertProblem(await api(t.app, method, path, { token: user.token }), 404, "not_found");
    }
    const list = await call(t, user, "GET", "/v1/vault/categories?limit=100");
    assert(!list.data.some((c: { id: string }) => c.id === hidden.id));
    const entries = await call(t, user, "GET", `/v1/vault/entries?categoryId=${hidden.id}`);
    assertEquals(entries.pagination.total, 0);
  }
  // vault.admin: admin on every category, with or without grants.
  const all = await call(t, u.admin, "GET", "/v1/vault/categories?limit=100");
  const levels = new Map(all.data.map((c: { id: string; level: string }) => [c.id, c.level]));
  assertEquals([levels.get(hidden.id), levels.get(shared.id)], ["admin", "admin"]);
});

Deno.test("vault.edit with an admin grant manages that category's grants; lower levels may not", async () => {
  const category = await createCategory(t, u.admin);
  const editorGrant = await grant(t, u.admin, category.id, { userId: u.editor.id }, "admin");
  assertEquals(
    (await call(t, u.editor, "GET", `/v1/vault/categories/${category.id}`)).level,
    "admin",
  );
  const role = await roleOf(u.viewer.id);
  const roleGrant = await call(
    t,
    u.editor,
    "POST",
    `/v1/vault/categories/${category.id}/permissions`,
    {
      roleId: role,
      level: "edit",
    },
  );
  assertEquals([roleGrant.roleId, roleGrant.userId, roleGrant.level], [role, null, "edit"]);
  const list = await call(t, u.editor, "GET", `/v1/vault/categories/${category.id}/permissions`);
  assertEquals(list.data.map((g: { id: string }) => g.id), [editorGrant.id, roleGrant.id]);
  assertEquals(Object.keys(list), ["data"]);
  // Through the role grant, the viewer sees the category (capped at view).
  assertEquals(
    (await call(t, u.viewer, "GET", `/v1/vault/categories/${category.id}`)).level,
    "view",
  );

  assertProblem(
    await api(t.app, "POST", `/v1/vault/categories/${category.id}/permissions`, {
      token: u.editor.token,
      body: { roleId: role, level: "admin" },
    }),
    409,
    "duplicate",
  );
  for (
    const body of [
      { level: "view" },
      { roleId: role, userId: u.viewer.id, level: "view" },
      { userId: u.viewer.id, level: "owner" },
    ]
  ) {
    assertProblem(
      await api(t.app, "POST", `/v1/vault/categories/${category.id}/permissions`, {
        token: u.editor.token,
        body,
      }),
      400,
      "validation_failed",
    );
  }
  for (
    const body of [{ roleId: crypto.randomUUID(), level: "view" }, {
      userId: crypto.randomUUID(),
      level: "view",
    }]
  ) {
    assertProblem(
      await api(t.app, "POST", `/v1/vault/categories/${category.id}/permissions`, {
        token: u.editor.token,
        body,
      }),
      400,
      "invalid_reference",
    );
  }
  // A view-level holder cannot read or change the grants; no level at all → 404.
  const viewOnly = await createUserWithPermissions(t, ["vault.edit"]);
  await grant(t, u.admin, category.id, { userId: viewOnly.id }, "view");
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${category.id}/permissions`, {
      token: viewOnly.token,
    }),
    403,
    "forbidden",
  );
  const stranger = await createUserWithPermissions(t, ["vault.edit"]);
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${category.id}/permissions`, {
      token: stranger.token,
    }),
    404,
    "not_found",
  );
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${category.id}/permissions`, {
      token: u.viewer.token,
    }),
    403,
    "forbidden",
  );

  // Revoke: a grant id under another category → 404; then the role grant goes.
  const elsewhere = await createCategory(t, u.admin);
  assertProblem(
    await api(t.app, "DELETE", `/v1/vault/categories/${elsewhere.id}/permissions/${roleGrant.id}`, {
      token: u.admin.token,
    }),
    404,
    "not_found",
  );
  await call(
    t,
    u.editor,
    "DELETE",
    `/v1/vault/categories/${category.id}/permissions/${roleGrant.id}`,
  );
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${category.id}`, { token: u.viewer.token }),
    404,
    "not_found",
  );
  const audited = await t.deps.db.selectFrom("audit_log").select("action")
    .where("entity_id", "=", category.id).execute();
  assert(audited.some((a) => a.action === "vault.permission_granted"));
  assert(audited.some((a) => a.action === "vault.permission_revoked"));
});

Deno.test("a role grant applies at once to its members; with a grant of their own too, the highest counts", async () => {
  const category = await createCategory(t, u.admin);
  const member = await createUserWithPermissions(t, ["vault.edit"]);
  const role = await roleOf(member.id);
  assertProblem(
    await api(t.app, "GET", `/v1/vault/categories/${category.id}`, { token: member.token }),
    404,
    "not_found",
  );
  await grant(t, u.admin, category.id, { roleId: role }, "view");
  await grant(t, u.admin, category.id, { userId: member.id }, "edit");
  assertEquals((await call(t, member, "GET", `/v1/vault/categories/${category.id}`)).level, "edit");
  await createEntry(t, member, { categoryId: category.id });
});

Deno.test("the categories list: search, sort, pagination, only visible ones", async () => {
  const prefix = `Zeta${crypto.randomUUID().slice(0, 6)}`;
  for (const n of ["b", "a", "c"]) await createCategory(t, u.admin, `${prefix} ${n}`);
  const page = await call(
    t,
    u.admin,
    "GET",
    `/v1/vault/categories?q=${prefix.toLowerCase()}&sort=name&order=desc&limit=2`,
  );
  assertEquals(page.data.map((c: { name: string }) => c.name), [`${prefix} c`, `${prefix} b`]);
  assertEquals(page.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, totalExact: true });
  const literal = await call(t, u.admin, "GET", "/v1/vault/categories?q=%25");
  assertEquals(literal.pagination.total, 0, "% is literal");
  assertProblem(
    await api(t.app, "GET", "/v1/vault/categories?sort=secret", { token: u.admin.token }),
    400,
    "validation_failed",
  );
  const none = await call(t, u.viewer, "GET", `/v1/vault/categories?q=${prefix}`);
  assertEquals(none.pagination.total, 0);
});
