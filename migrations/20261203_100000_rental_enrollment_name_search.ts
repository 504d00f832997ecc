import { type Kysely, sql } from "kysely";

/**
 * Rentals and enrollments each keep the names their list's `q` searches, lowered, in a column
 * of their own with a trigram index, so a search is one bitmap scan of their table:
 *
 * - `rentals.search`: the account's name and the member's full name, joined by `chr(31)` (the
 *   unit's serial is still matched through the units' trigram index);
 * - `enrollments.search`: the member's full name.
 *
 * At shop10y size (100,000 accounts, 150,000 members) the rentals search for a common name
 * went through two trigram scans and 12,500 key lookups (38 ms for one client), and the
 * enrollments search through a hash of the 15,000 members matching (28 ms). The copies are
 * kept by the use cases, in the transaction that creates the row or renames the account or
 * member (app/accounts/name_copies.ts).
 *
 * The members' full-name trigram index (20261128_100000_add_list_indexes), which only the
 * enrollments search read, goes: every member write paid for it. The enrollments of a slot get
 * an index in the list's order: their page walked the enrollments by creation, ~2,500 of them
 * at shop10y for a slot's 25.
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE rentals ADD COLUMN search text NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE enrollments ADD COLUMN search text NOT NULL DEFAULT ''`.execute(db);
  // The same texts as app/rentals/rentals_repo.ts and app/lessons/enrollments_repo.ts write
  // (the member's name: selectLowerFullNameOfMember, app/accounts/members_repo.ts).
  await sql`UPDATE rentals r SET search = lower(a.name) || chr(31) ||
      coalesce((SELECT lower(m.first_name || ' ' || m.last_name) FROM members m
                WHERE m.id = r.member_id), '')
    FROM accounts a WHERE a.id = r.account_id`.execute(db);
  await sql`UPDATE enrollments e SET search = lower(m.first_name || ' ' || m.last_name)
    FROM members m WHERE m.id = e.member_id`.execute(db);
  await sql`CREATE INDEX rentals_search_trgm ON rentals USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX enrollments_search_trgm ON enrollments USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`DROP INDEX members_full_name_trgm_idx`.execute(db);
  await sql`CREATE INDEX enrollments_slot_created_idx ON enrollments (slot_id, created_at, id)`
    .execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`DROP INDEX enrollments_slot_created_idx`.execute(db);
  await sql`CREATE INDEX members_full_name_trgm_idx ON members
    USING gin (lower(first_name || ' ' || last_name) gin_trgm_ops)`.execute(db);
  await sql`ALTER TABLE rentals DROP COLUMN search`.execute(db);
  await sql`ALTER TABLE enrollments DROP COLUMN search`.execute(db);
}
