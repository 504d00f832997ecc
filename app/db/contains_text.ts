/**
 * The lists' `q`: `column ILIKE '%q%'` (case-insensitive substring, `%`, `_` and `\` matching
 * themselves), written so that a trigram index on the column is searched for q's long words
 * only.
 *
 * pg_trgm turns a pattern into trigrams, and a GIN index answers with the rows holding all of
 * them. A word of one or two characters, or the edge of any word next to a separator, gives
 * trigrams that hold for a large part of the table: in `sn-0914218` (a serial number as a clerk
 * types it) `sn ` is in every ticket that has a serial, and reading its posting list took 1.8 of
 * the index scan's 2.0 ms on 100,000 tickets. So when q has words of three characters or more
 * and is not itself a single word, the index condition is one `ILIKE '%word%'` per such word
 * (no edges: a word inside wildcards gives only its inner trigrams), and the exact pattern is
 * checked on the rows it finds through an expression the index does not cover (`column || ''`,
 * which the planner cannot match to the index, so it stays a filter instead of adding its
 * trigrams back). Every row matching q contains each of its words, so the result is exactly
 * the rows matching q.
 *
 * ILIKE lowers both sides on every row it checks, half of a search's time in the rechecks of
 * its matches (measured on the embedded engine: 1.14 ms against 0.47 ms with LIKE for 480
 * matches checked against three patterns). Most searched columns hold lowered text already
 * (`search` columns generated as `lower(...)`, `lower(name)` expressions), so for those
 * (`{ lowered: true }`) a q written in ASCII is lowered here and matched with LIKE: the same
 * rows, as `lower()` maps A–Z to a–z (in every locale but a Turkish one) and `lower(lower(x))`
 * is `lower(x)`. Any other q keeps ILIKE, whose `lower()` is the database's own.
 */
import { type Expression, type RawBuilder, sql, type SqlBool } from "kysely";
import { likePattern } from "../schemas.ts";

/** Words shorter than this give only edge trigrams (`  a`, ` ab`, `ab `). */
const MIN_INDEXED_WORD = 3;
/** More words add trigrams the index must intersect with little left to narrow. */
const MAX_INDEXED_WORDS = 4;

export interface ContainsTextOptions {
  /** The target is lowered text (`lower(...)`): an ASCII q is matched with LIKE (see above). */
  lowered?: boolean;
}

/** The options of a target holding lowered text. */
export const LOWERED: ContainsTextOptions = Object.freeze({ lowered: true });

/** Printable ASCII (anything else keeps ILIKE). */
const ASCII = /^[ -~]*$/;

/** How `containsText(target, q, options)` matches: its operator and the patterns it binds. */
interface Matching {
  /** LIKE on lowered q when the target is lowered text and q is ASCII; ILIKE on q otherwise. */
  operator: "LIKE" | "ILIKE";
  /** What tells its SQL text apart: the number of indexed words, and `l` for LIKE. */
  key: string;
  /** In the order they are bound: the indexed words' patterns (if any), then q's. */
  values: string[];
}

function matchingOf(q: string, options: ContainsTextOptions | undefined): Matching {
  const like = options?.lowered === true && ASCII.test(q);
  const exact = likePattern(like ? q.toLowerCase() : q);
  const words = indexedWords(q) ?? [];
  return {
    operator: like ? "LIKE" : "ILIKE",
    key: `${words.length}${like ? "l" : ""}`,
    values: [...words.map(likePattern), exact],
  };
}

/**
 * `target` contains `q`, case-insensitively (see above). `target` is a trusted column reference
 * (`"rt.search"`) or an expression (`sql\`price::text\``).
 */
export function containsText(
  target: string | Expression<unknown>,
  q: string,
  options?: ContainsTextOptions,
): RawBuilder<SqlBool> {
  const ref = typeof target === "string" ? sql.ref(target) : target;
  const { operator, values } = matchingOf(q, options);
  const conditions = values.map((pattern, i) =>
    sql`${isFiltered(i, values.length) ? sql`(${ref} || '')` : ref} ${sql.raw(operator)} ${pattern}`
  );
  return sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}

/**
 * containsText for hand-written SQL: the condition on `target` (trusted SQL text) with its
 * patterns as `$firstParameter`, `$firstParameter + 1`..., and the values to bind there.
 */
export function containsTextSql(
  target: string,
  q: string,
  firstParameter: number,
  options?: ContainsTextOptions,
): { sql: string; values: string[] } {
  const { operator, values } = matchingOf(q, options);
  const conditions = values.map((_, i) =>
    `${isFiltered(i, values.length) ? `(${target} || '')` : target} ${operator} $${
      firstParameter + i
    }`
  );
  return { sql: `(${conditions.join(" AND ")})`, values };
}

/** Whether pattern `i` of `count` is q's whole pattern after the words': a filter, not indexed. */
function isFiltered(i: number, count: number): boolean {
  return count > 1 && i === count - 1;
}

/**
 * What `containsText(column, q, options)` binds, in order, and the key that tells its SQL text
 * apart, for the lists that compile each shape once (`listShape`). containsText builds its SQL
 * from these same values.
 */
export function containsTextBinding(
  q: string,
  options?: ContainsTextOptions,
): { key: string; values: string[] } {
  const { key, values } = matchingOf(q, options);
  return { key, values };
}

/**
 * The words of q the index is searched for (longest first), or undefined when the plain
 * pattern is as good: q is one word, or has no word long enough to give an inner trigram.
 */
export function indexedWords(q: string): string[] | undefined {
  const lower = q.toLowerCase();
  const words = [...new Set(lower.match(/[\p{L}\p{N}]+/gu) ?? [])]
    .filter((word) => word.length >= MIN_INDEXED_WORD);
  if (words.length === 0 || (words.length === 1 && words[0] === lower)) return undefined;
  return words.sort((a, b) => b.length - a.length).slice(0, MAX_INDEXED_WORDS);
}
