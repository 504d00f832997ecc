import { type Kysely, sql } from "kysely";

/**
 * The wrong-PIN counters (PIN login and manager-override codes, API §2 and §8) are keyed by the
 * user an employee number belongs to, no longer by the number: renumbering a user used to give
 * five fresh guesses at their PIN under the new number. `counter_key` is `user:<user id>` for a
 * number that belongs to a user, kept across renumbering, and `number:<employee number>` for a
 * number nobody holds (so guessing at it answers as before).
 *
 * Existing counters move to the user who holds their number now.
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE pin_login_failures RENAME COLUMN employee_number TO counter_key`
    .execute(db);
  await sql`UPDATE pin_login_failures f SET counter_key = coalesce(
      (SELECT 'user:' || u.id::text FROM users u WHERE u.employee_number = f.counter_key),
      'number:' || f.counter_key)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  // A user's counter goes back to the number they hold now; a number's counter that would
  // clash with it (or a counter of a user who is gone) is dropped.
  await sql`DELETE FROM pin_login_failures f
    WHERE (f.counter_key LIKE 'user:%' AND NOT EXISTS
            (SELECT 1 FROM users u WHERE 'user:' || u.id::text = f.counter_key))
       OR (f.counter_key LIKE 'number:%' AND EXISTS
            (SELECT 1 FROM users u WHERE 'number:' || u.employee_number = f.counter_key))`
    .execute(db);
  await sql`UPDATE pin_login_failures f SET counter_key = CASE
      WHEN f.counter_key LIKE 'user:%' THEN
        (SELECT u.employee_number FROM users u WHERE 'user:' || u.id::text = f.counter_key)
      ELSE substr(f.counter_key, length('number:') + 1) END`.execute(db);
  await sql`ALTER TABLE pin_login_failures RENAME COLUMN counter_key TO employee_number`
    .execute(db);
}
