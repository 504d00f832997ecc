/**
 * `containsText` (app/db/contains_text.ts): the rows it finds are exactly those of the plain
 * `ILIKE '%q%'`, for any q (a property test over a table of varied texts, on the engine under
 * test), and on PostgreSQL the trigram index is searched for q's long words only.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { createTestDatabase, sql } from "../_helpers/test_db.ts";
import {
  containsText,
  containsTextBinding,
  containsTextSql,
  indexedWords,
  LOWERED,
} from "../../app/db/contains_text.ts";
import { likePattern } from "../../app/schemas.ts";
import { CompiledQuery } from "kysely";

Deno.test("indexedWords: the long words of q, longest first; none when q is one word", () => {
  assertEquals(indexedWords("sn-0914218"), ["0914218"]);
  assertEquals(indexedWords("violin"), undefined);
  assertEquals(indexedWords("Violin"), undefined);
  assertEquals(indexedWords("ab-cd"), undefined);
  assertEquals(indexedWords("R-012345"), ["012345"]);
  assertEquals(indexedWords("anna@example.com"), ["example", "anna", "com"]);
  assertEquals(indexedWords("100%_off"), ["100", "off"]);
  assertEquals(indexedWords("Çelik müzik"), ["çelik", "müzik"]);
  assertEquals(indexedWords("one two three four five six"), ["three", "four", "five", "one"]);
  assertEquals(containsTextBinding("violin"), { key: "0", values: ["%violin%"] });
  assertEquals(containsTextBinding("sn-0914_18"), {
    key: "1",
    values: ["%0914%", "%sn-0914\\_18%"],
  });
  // On lowered text, an ASCII q is lowered for LIKE; any other keeps ILIKE.
  assertEquals(containsTextBinding("SN-0914_18", LOWERED), {
    key: "1l",
    values: ["%0914%", "%sn-0914\\_18%"],
  });
  assertEquals(containsTextBinding("Violin", LOWERED), { key: "0l", values: ["%violin%"] });
  assertEquals(containsTextBinding("Müller", LOWERED), { key: "0", values: ["%Müller%"] });
  assertEquals(containsTextSql("lower(name)", "Red Violin", 5, LOWERED), {
    sql: "(lower(name) LIKE $5 AND lower(name) LIKE $6 AND (lower(name) || '') LIKE $7)",
    values: ["%violin%", "%red%", "%red violin%"],
  });
});

/** Texts like the ones searched: serials, ticket numbers, names, emails, odd characters. */
const TEXTS = [
  "r-000123 violin, cracked sn-0914218",
  "r-000124 cello sn-0914219",
  "R-012345 Trumpet SN-1234567",
  "sn 0914218",
  "0914218",
  "snx-0914218",
  "Anna Müller anna@example.com",
  "anna-example.com",
  "100%_off sale",
  "100 off sale",
  "back\\slash 12_34",
  "Çelik Müzik Evi",
  "çelik",
  "",
  "   spaced   words   ",
];

Deno.test("containsText finds exactly the rows of ILIKE '%q%', for any q", async () => {
  const t = await createTestDatabase();
  try {
    const db = t.db;
    await sql`CREATE TABLE contains_text_probe (id int PRIMARY KEY, t text,
      lowered text GENERATED ALWAYS AS (lower(t)) STORED)`.execute(db);
    await sql`CREATE INDEX contains_text_probe_trgm ON contains_text_probe
      USING gin (t gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX contains_text_probe_lowered_trgm ON contains_text_probe
      USING gin (lowered gin_trgm_ops)`.execute(db);
    const rows = [...TEXTS, null].map((text, id) => sql`(${id}, ${text})`);
    await sql`INSERT INTO contains_text_probe (id, t) VALUES ${sql.join(rows)}`.execute(db);
    const ids = async (where: ReturnType<typeof sql>) =>
      (await sql<{ id: number }>`SELECT id FROM contains_text_probe WHERE ${where} ORDER BY id`
        .execute(db)).rows.map((row) => row.id);
    // On lowered text an ASCII q is matched with LIKE; any other target keeps ILIKE.
    assertEquals(
      containsText("lowered", "Violin", LOWERED).compile(db).sql,
      `("lowered" LIKE $1)`,
    );
    assertEquals(containsText("t", "Violin").compile(db).sql, `("t" ILIKE $1)`);
    const check = async (q: string) => {
      const expected = await ids(sql`t ILIKE ${likePattern(q)}`);
      assertEquals(await ids(containsText("t", q)), expected, JSON.stringify(q));
      // On lowered text (LIKE when q is ASCII): the same rows.
      assertEquals(await ids(containsText("lowered", q, LOWERED)), expected, JSON.stringify(q));
      // Hand-written SQL (containsTextSql), its patterns bound from $2 on.
      const written = containsTextSql("lowered", q, 2, LOWERED);
      const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw(
        `SELECT id FROM contains_text_probe WHERE id >= $1 AND ${written.sql} ORDER BY id`,
        [0, ...written.values],
      ));
      assertEquals(rows.map((row) => row.id), expected, JSON.stringify(q));
      return expected.length;
    };
    // Known cases: a separator and short word that must still match as typed.
    assertEquals(await check("sn-0914218"), 1);
    assertEquals(await check("SN-09142"), 2);
    assertEquals(await check("0914218"), 4);
    assertEquals(await check("100%_off"), 1);
    assertEquals(await check("anna example"), 0);
    assertEquals(await check("MÜLLER anna@"), 1);
    // Any q: substrings of the texts (hits), and random text over the same characters.
    const pieces = TEXTS.flatMap((text) => [text, text.toUpperCase()]);
    const fromTexts = fc.tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat()).map(
      ([text, a, b]) => text.slice(Math.min(a, b) % (text.length + 1), Math.max(a, b) % 40),
    );
    const chars = fc.constantFrom(..."ab snr-0914%_\\@.çÇü 12xyz".split(""));
    const random = fc.array(chars, { maxLength: 16 }).map((c) => c.join(""));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fromTexts, random), async (q) => {
        fc.pre(q.trim().length > 0);
        await check(q);
      }),
      { numRuns: 300 },
    );
    if (t.kind === "postgres") {
      // The index is searched for the long word alone; the whole pattern is a filter.
      await sql`SET enable_seqscan = off`.execute(db);
      const { rows: plan } = await sql<{ "QUERY PLAN": string }>`EXPLAIN (COSTS OFF)
        SELECT id FROM contains_text_probe WHERE ${containsText("t", "sn-0914218")}`.execute(db);
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      const indexCond = text.split("\n").find((line) => line.includes("Index Cond")) ?? "";
      assert(indexCond.includes("'%0914218%'"), text);
      assert(!indexCond.includes("sn-"), text);
      assert(/Filter: .*'%sn-0914218%'/.test(text), text);
    }
  } finally {
    await t.close();
  }
});
