import { type Kysely, sql } from "kysely";

/**
 * A tax-exempt transaction keeps the certificate that exempted it (API §17: the receipt names
 * it), as it was when the transaction was priced: a later edit, revocation or deletion of the
 * exemption does not rewrite a receipt. Only a tax-exempt transaction has one; transactions
 * from before keep none (their receipts say "Tax exempt" without a number).
 */

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN tax_exempt_certificate text
    CONSTRAINT transactions_exempt_certificate_check
      CHECK (tax_exempt_certificate IS NULL OR tax_exempt)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`ALTER TABLE transactions DROP COLUMN tax_exempt_certificate`.execute(db);
}
