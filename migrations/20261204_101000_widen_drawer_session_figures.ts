import { type Kysely, sql } from "kysely";

/**
 * A drawer session's closing balance, expected balance and over/short are stored as
 * numeric(16,2) (issue 42): each sale, payment and cash adjustment holds up to
 * 9,999,999,999.99 (numeric(12,2)), but a session sums many of them, so two of the largest
 * cash sales made the expected balance overflow numeric(12,2) and the drawer could never be
 * closed (400 on every close). numeric(16,2) holds every amount integer cents keep exactly
 * (up to 2^53 − 1 cents), the range the reports compute in. Raising a numeric's precision
 * with the same scale does not rewrite the table.
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

async function figuresAs(db: Db, type: ReturnType<typeof sql>): Promise<void> {
  await sql`ALTER TABLE drawer_sessions
    ALTER COLUMN closing_balance TYPE ${type},
    ALTER COLUMN expected_balance TYPE ${type},
    ALTER COLUMN over_short TYPE ${type}`.execute(db);
}

export async function up(db: Db): Promise<void> {
  await figuresAs(db, sql`numeric(16,2)`);
}

export async function down(db: Db): Promise<void> {
  await figuresAs(db, sql`numeric(12,2)`);
}
