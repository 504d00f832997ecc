/**
 * The embedded engine's statement cache (app/db/pglite_statements.ts): DML runs as named
 * prepared statements of PGlite's session, planned as the PostgreSQL pools plan theirs, and
 * nothing a cached statement could get wrong (a changed table, a rolled-back SET, an error)
 * shows.
 */
import { type Kysely, sql } from "kysely";
import { assert, assertEquals, assertRejects } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { errorCode } from "../../app/db/db_errors.ts";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

async function withEmbedded(work: (db: AnyDb) => Promise<void>): Promise<void> {
  const handle = await openDatabase({ inMemory: true });
  try {
    await work(handle.db as AnyDb);
  } finally {
    await handle.close();
  }
}

async function preparedStatements(db: AnyDb): Promise<string[]> {
  // Not DML: runs unprepared, so it does not count itself.
  await sql`SET search_path = public`.execute(db);
  const { rows } = await sql<{ statement: string }>`
    SELECT statement FROM pg_prepared_statements ORDER BY prepare_time`.execute(db);
  return rows.map((row) => row.statement);
}

/** The session's plan_cache_mode, read without running a prepared statement. */
async function planCacheMode(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db);
  return rows[0]!.plan_cache_mode;
}

Deno.test("embedded statements: DML is prepared once per text and runs with its values", async () => {
  await withEmbedded(async (db) => {
    await sql`CREATE TABLE items (id int PRIMARY KEY, name text, seen_at timestamptz,
      tags text[], data jsonb, ok boolean)`.execute(db);
    const at = new Date("2026-11-29T10:00:00.000Z");
    // Text in every width UTF-8 has, nulls, numbers of each kind, a date, several commands.
    const { rows: odd } = await sql<Record<string, unknown>>`
      SELECT 'Çelik Müzik 🎸 ü' AS text, NULL::text AS nothing, 9007199254740991::int8 AS big,
        12.50::numeric AS money, DATE '2026-11-29' AS day, 3::int2 AS small, true AS yes,
        ARRAY[1, NULL, 3] AS list, '' AS empty`.execute(db);
    assertEquals(odd, [{
      text: "Çelik Müzik 🎸 ü",
      nothing: null,
      big: 9007199254740991,
      money: "12.50",
      day: "2026-11-29",
      small: 3,
      yes: true,
      list: [1, null, 3],
      empty: "",
    }]);
    for (let id = 1; id <= 3; id++) {
      await db.insertInto("items").values({
        id,
        name: `item ${id}`,
        seen_at: at,
        tags: ["a", `t${id}`],
        data: JSON.stringify({ id }),
        ok: id % 2 === 1,
      }).execute();
    }
    const rows = await db.selectFrom("items").selectAll().where("id", ">=", 2).orderBy("id")
      .execute();
    assertEquals(rows.map((row) => [row.id, row.name, row.tags, row.data, row.ok]), [
      [2, "item 2", ["a", "t2"], { id: 2 }, false],
      [3, "item 3", ["a", "t3"], { id: 3 }, true],
    ]);
    assertEquals(new Date(rows[0]!.seen_at).toISOString(), at.toISOString());
    const updated = await db.updateTable("items").set({ name: null }).where("id", "=", 1)
      .executeTakeFirst();
    assertEquals(updated.numUpdatedRows, 1n);

    const statements = await preparedStatements(db);
    // One insert for three runs, one select, one update.
    assertEquals(statements.filter((text) => text.startsWith("insert")).length, 1);
    assertEquals(statements.filter((text) => text.startsWith("select")).length, 1);
    assertEquals(statements.filter((text) => text.startsWith("update")).length, 1);
  });
});

Deno.test("embedded statements: a changed table is read with its new columns", async () => {
  await withEmbedded(async (db) => {
    await sql`CREATE TABLE notes (id int)`.execute(db);
    await db.insertInto("notes").values({ id: 1 }).execute();
    assertEquals(await db.selectFrom("notes").selectAll().execute(), [{ id: 1 }]);
    // Kept, the prepared `select *` would fail: "cached plan must not change result type".
    await sql`ALTER TABLE notes ADD COLUMN body text DEFAULT 'x'`.execute(db);
    assertEquals(await db.selectFrom("notes").selectAll().execute(), [{ id: 1, body: "x" }]);
    assertEquals(
      (await preparedStatements(db)).filter((text) => text.includes('"notes"')).length,
      1,
      "the statements prepared before the change are closed",
    );
  });
});

Deno.test("embedded statements: page queries plan as on PostgreSQL, and a rollback's SET is not trusted", async () => {
  await withEmbedded(async (db) => {
    await sql`CREATE TABLE t (id int)`.execute(db);
    const plannedOnce = sql`/* plan once */ select id, 1 as "__total" from t`;
    const page = sql`select id, 1 as "__total" from t`;
    await plannedOnce.execute(db);
    assertEquals(await planCacheMode(db), "force_generic_plan");
    await page.execute(db);
    assertEquals(await planCacheMode(db), "force_custom_plan");
    await db.selectFrom("t").selectAll().execute();
    assertEquals(await planCacheMode(db), "auto");

    // A SET made in a transaction is undone by its rollback.
    await db.transaction().execute(async (trx) => {
      await plannedOnce.execute(trx);
      assertEquals(await planCacheMode(trx), "force_generic_plan");
      throw new Error("roll back");
    }).catch(() => {});
    assertEquals(await planCacheMode(db), "auto");
    await plannedOnce.execute(db);
    assertEquals(await planCacheMode(db), "force_generic_plan");
  });
});

Deno.test("embedded statements: errors are PostgreSQL's, and the session goes on", async () => {
  await withEmbedded(async (db) => {
    await sql`CREATE TABLE u (id int PRIMARY KEY)`.execute(db);
    await db.insertInto("u").values({ id: 1 }).execute();
    const duplicate = await assertRejects(() => db.insertInto("u").values({ id: 1 }).execute());
    assertEquals(errorCode(duplicate), "23505");
    // PostgreSQL's fields, as PGlite's own errors carry them (db_errors.ts reads them).
    assertEquals(
      { ...duplicate, message: duplicate.message },
      {
        message: 'duplicate key value violates unique constraint "u_pkey"',
        severity: "ERROR",
        code: "23505",
        detail: "Key (id)=(1) already exists.",
        schema: "public",
        table: "u",
        constraint: "u_pkey",
        file: (duplicate as { file?: string }).file,
        line: (duplicate as { line?: string }).line,
        routine: (duplicate as { routine?: string }).routine,
      },
    );
    const badSyntax = await assertRejects(() => sql`select from from u`.execute(db));
    assertEquals(errorCode(badSyntax), "42601");
    // A failed statement in a transaction aborts it; the next transaction is fine.
    await assertRejects(() =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto("u").values({ id: 2 }).execute();
        await trx.insertInto("u").values({ id: 1 }).execute();
      })
    );
    assertEquals(await db.selectFrom("u").select("id").execute(), [{ id: 1 }]);
    await db.insertInto("u").values({ id: 3 }).execute();
    assertEquals((await db.selectFrom("u").select("id").orderBy("id").execute()).length, 2);
  });
});

Deno.test("embedded statements: at most 500 are kept, the least recently run closed first", async () => {
  await withEmbedded(async (db) => {
    await sql`CREATE TABLE v (id int)`.execute(db);
    const first = () => sql`select 0 as n from v`.execute(db);
    await first();
    for (let n = 1; n <= 520; n++) {
      await sql`select ${sql.raw(String(n))} as n from v`.execute(db);
      if (n % 100 === 0) await first(); // Recently run: kept.
    }
    const statements = await preparedStatements(db);
    // The reading statement is the 501st: the one it pushed out is closed on the next run.
    assert(statements.length <= 501, `${statements.length} statements kept`);
    assert(statements.includes("select 0 as n from v"), "the recently run statement is kept");
    assert(!statements.includes("select 1 as n from v"), "the least recently run is closed");
  });
});
