import { type Kysely, sql } from "kysely";

/**
 * The discount share a manager approved for a pending sale, and who (issue 42): the lines'
 * reductions below their catalogue prices with the order discount, over the subtotal at
 * catalogue prices, kept exactly as a fraction `discount_approved_part /
 * discount_approved_whole` (both in cents × basis points, see
 * domain/pos/price_reductions.ts). A change of lines that raises the share beyond the
 * threshold needs a manager's override unless it stays within the share approved; so does
 * completing the sale.
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE transactions
    ADD COLUMN discount_approved_part numeric,
    ADD COLUMN discount_approved_whole numeric,
    ADD COLUMN discount_approved_by uuid REFERENCES users (id),
    ADD CONSTRAINT transactions_discount_approval CHECK (
      (discount_approved_part IS NULL) = (discount_approved_whole IS NULL)
      AND (discount_approved_part IS NULL) = (discount_approved_by IS NULL)
      AND (discount_approved_whole IS NULL OR
           (discount_approved_whole > 0 AND discount_approved_part >= 0))
    )`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`ALTER TABLE transactions
    DROP CONSTRAINT transactions_discount_approval,
    DROP COLUMN discount_approved_part,
    DROP COLUMN discount_approved_whole,
    DROP COLUMN discount_approved_by`.execute(db);
}
