/**
 * On 60,000 entries in 60 categories (PostgreSQL only): the entry search (`q` over name,
 * username and URL) is planned on the trigram index, not a scan, for a vault.admin and for a
 * user who sees a few categories through a role grant; and the visibility rule costs no query
 * per category: a page of categories or entries is ONE statement, whatever the grants.
 */
import { Kysely } from "kysely";
import postgres from "postgres";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { customPlan, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";
import { createUserWithPermissions, type TestUser } from "../_helpers/test_app.ts";
import type { Database } from "../../app/db/database.ts";
import { PostgresDialect } from "../../app/db/postgres_dialect.ts";
import { listVisibleCategories } from "../../app/vault/categories_repo.ts";
import { listVisibleEntries } from "../../app/vault/entries_repo.ts";
import { viewerOf } from "../../app/vault/viewer.ts";
import type { Actor } from "../../app/actor.ts";
import type { Permission } from "../../domain/auth/permissions.ts";

const CATEGORIES = 60;
const ENTRIES = 60_000;
let member: TestUser;

const plans = withPlanDatabase(async (t) => {
  const db = t.deps.db;
  member = await createUserWithPermissions(t, ["vault.edit"]);
  await sql`
    INSERT INTO vault_categories (id, name, created_at, updated_at)
    SELECT md5('c' || i)::uuid, 'Category ' || lpad(i::text, 3, '0'), now(), now()
    FROM generate_series(1, ${CATEGORIES}) AS i`.execute(db);
  // The member's role sees categories 1..3; the member alone sees category 4.
  await sql`
    INSERT INTO vault_category_permissions (id, category_id, role_id, level)
    SELECT md5('g' || i)::uuid, md5('c' || i)::uuid,
           (SELECT role_id FROM user_roles WHERE user_id = ${member.id}), 'edit'
    FROM generate_series(1, 3) AS i`.execute(db);
  await sql`
    INSERT INTO vault_category_permissions (id, category_id, user_id, level)
    VALUES (md5('g4')::uuid, md5('c4')::uuid, ${member.id}, 'view')`.execute(db);
  await sql`DROP INDEX vault_entries_search_trgm`.execute(db);
  await sql`
    INSERT INTO vault_entries (id, category_id, name, username, url, secret_sealed, created_at,
                               updated_at)
    SELECT md5('e' || i)::uuid, md5('c' || (i % ${CATEGORIES} + 1))::uuid,
           'Login ' || substr(md5('n' || i), 1, 10), substr(md5('u' || i), 1, 8),
           'https://' || substr(md5('h' || i), 1, 12) || '.example', 'v1.AAAA.AAAA',
           now() - (i || ' seconds')::interval, now()
    FROM generate_series(1, ${ENTRIES}) AS i`.execute(db);
  await sql`CREATE INDEX vault_entries_search_trgm ON vault_entries USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`ANALYZE vault_entries`.execute(db);
  await sql`ANALYZE vault_category_permissions`.execute(db);
});

function actor(user: { id: string } | null, permissions: Permission[]): Actor {
  return {
    userId: user?.id ?? null,
    email: null,
    kind: "access",
    permissions: new Set(permissions),
  };
}

async function nameOf(n: number): Promise<string> {
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM vault_entries WHERE id = md5(${"e" + n})::uuid`.execute(plans.app.deps.db);
  return rows[0]!.name;
}

Deno.test({
  name: "entry search on 60,000 entries uses the trigram index, for an admin and for a role grant",
  ignore: !onPostgres,
  async fn() {
    const term = (await nameOf(12_345)).slice(6).toLowerCase();
    const params = { page: 1, limit: 25, q: term, sort: "name" as const, order: "asc" as const };
    for (
      const viewer of [
        viewerOf(actor(null, ["vault.admin"])),
        viewerOf(actor(member, ["vault.view", "vault.edit"])),
      ]
    ) {
      const db = plans.traced.db;
      const plan = await customPlan(
        db,
        await plans.traced.listQueryOf(() => listVisibleEntries(db, viewer, params)),
      );
      assert(/vault_entries_search_trgm/.test(plan), plan);
      assert(!/Seq Scan on vault_entries/.test(plan), plan);
    }
    const admin = await listVisibleEntries(
      plans.app.deps.db,
      viewerOf(actor(null, ["vault.admin"])),
      params,
    );
    assert(
      admin.data.some((e) => e.name.toLowerCase().includes(term)),
    );
    // Entry 12,345 is in category 12,345 % 60 + 1 = 46: not one the member sees.
    const limited = await listVisibleEntries(
      plans.app.deps.db,
      viewerOf(actor(member, ["vault.view", "vault.edit"])),
      params,
    );
    assertEquals(limited.pagination.total, 0);
  },
});

Deno.test({
  name:
    "a page of categories or entries is one statement, whatever the grants (no query per category)",
  ignore: !onPostgres,
  async fn() {
    const statements: string[] = [];
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        postgres: postgres(plans.app.database.url!, { max: 1, onnotice: () => {} }),
      }),
      log: (event) => {
        if (event.level === "query") statements.push(event.query.sql);
      },
    });
    try {
      const viewer = viewerOf(actor(member, ["vault.view", "vault.edit"]));
      const list = {
        page: 1,
        limit: 100,
        q: undefined,
        sort: "name" as const,
        order: "asc" as const,
      };
      const categories = await listVisibleCategories(db, viewer, list);
      assertEquals(categories.pagination.total, 4);
      assertEquals(categories.data.map((c) => c.level), ["edit", "edit", "edit", "view"]);
      assertEquals(statements.length, 1, statements.join("\n"));
      statements.length = 0;
      const entries = await listVisibleEntries(db, viewer, list);
      assertEquals(entries.pagination.total, 4 * ENTRIES / CATEGORIES);
      assertEquals(statements.length, 1, statements.join("\n"));
    } finally {
      await db.destroy();
    }
  },
});
