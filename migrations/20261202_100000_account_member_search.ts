import { type Kysely, sql } from "kysely";

/**
 * Each side of the account–member pair searches the other's names in its own text, so a
 * search is one trigram index instead of two united (and thousands of key lookups):
 *
 * - `accounts.member_search` holds the account's members' lowered names and emails, folded
 *   into `accounts.search` (the accounts list's `q` covers member names);
 * - `members.account_name` holds the account's name, folded into `members.search` (the
 *   members list's `q` covers the account's name, and so does the rentals list's member
 *   branch, whose `q` covers it anyway).
 *
 * Both copies are kept in step by the use cases that write members or rename an account, in
 * the same transaction (app/accounts/members.ts, accounts.ts). At shop10y size, the accounts
 * search for a common name went from two bitmap scans and 5,000 key lookups (33 ms) to one
 * bitmap scan. PostgreSQL 15 cannot change a generated column's expression, so each `search`
 * is made again, with its trigram index.
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

/** `table`'s `search` made again as `expression`, with its trigram index. */
async function searchAs(
  db: Db,
  table: "accounts" | "members",
  expression: ReturnType<typeof sql>,
): Promise<void> {
  await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN search`.execute(db);
  await sql`ALTER TABLE ${sql.table(table)}
    ADD COLUMN search text GENERATED ALWAYS AS (${expression}) STORED`.execute(db);
  await sql`CREATE INDEX ${sql.id(`${table}_search_trgm`)} ON ${sql.table(table)}
    USING gin (search gin_trgm_ops)`.execute(db);
}

const ACCOUNT_OWN_TEXT = sql`name || ' ' || account_number || ' ' || coalesce(email, '') || ' ' ||
  coalesce(phone, '')`;
const MEMBER_OWN_TEXT = sql`first_name || ' ' || last_name || ' ' || coalesce(email, '')`;

export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE accounts ADD COLUMN member_search text NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE members ADD COLUMN account_name text NOT NULL DEFAULT ''`.execute(db);
  // The same text as app/accounts/accounts_repo.ts refreshMemberSearch writes.
  await sql`UPDATE accounts a SET member_search = m.texts
    FROM (SELECT account_id, string_agg(lower(${MEMBER_OWN_TEXT}), chr(31)
            ORDER BY created_at, id) AS texts
          FROM members GROUP BY account_id) m
    WHERE m.account_id = a.id`.execute(db);
  await sql`UPDATE members m SET account_name = a.name FROM accounts a WHERE a.id = m.account_id`
    .execute(db);
  await searchAs(db, "accounts", sql`lower(${ACCOUNT_OWN_TEXT}) || chr(31) || member_search`);
  await searchAs(db, "members", sql`lower(${MEMBER_OWN_TEXT} || chr(31) || account_name)`);
}

export async function down(db: Db): Promise<void> {
  await searchAs(db, "accounts", sql`lower(${ACCOUNT_OWN_TEXT})`);
  await searchAs(db, "members", sql`lower(${MEMBER_OWN_TEXT})`);
  await sql`ALTER TABLE accounts DROP COLUMN member_search`.execute(db);
  await sql`ALTER TABLE members DROP COLUMN account_name`.execute(db);
}
