import { type Kysely, sql } from "kysely";

/**
 * `rental_charges.buyout_transaction_id`: the completed buyout sale whose payoff counted the
 * charge's rent-to-own equity (null when none). A buyout completing sets it on its rental's
 * paid charges with equity; voiding or refunding that sale clears it; while it is set, the rent
 * the charge was paid with cannot be refunded or voided (409 `equity_consumed`), which the CHECK
 * backs: such a charge stays paid. Existing purchased rentals get it on the charges with equity
 * paid by the time of their purchase, unless their buyout sale has been refunded.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rental_charges ADD COLUMN buyout_transaction_id uuid`.execute(db);
  await sql`
    UPDATE rental_charges c SET buyout_transaction_id = r.purchase_transaction_id
      FROM rentals r
     WHERE c.rental_id = r.id AND r.status = 'purchased'
       AND r.purchase_transaction_id IS NOT NULL
       AND c.status = 'paid' AND c.equity > 0 AND c.paid_at <= r.purchased_at
       AND NOT EXISTS (SELECT 1 FROM transaction_items ti
                        WHERE ti.transaction_id = r.purchase_transaction_id
                          AND ti.refunded_quantity > 0)`.execute(db);
  await sql`
    ALTER TABLE rental_charges ADD CONSTRAINT rental_charges_buyout_paid
      CHECK (buyout_transaction_id IS NULL OR status = 'paid')`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rental_charges DROP CONSTRAINT IF EXISTS rental_charges_buyout_paid`
    .execute(db);
  await sql`ALTER TABLE rental_charges DROP COLUMN IF EXISTS buyout_transaction_id`.execute(db);
}
