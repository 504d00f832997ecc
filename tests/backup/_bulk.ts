/**
 * A big shop in a few statements (INSERT … SELECT generate_series), on either engine: accounts
 * with a member each, products, and pending sales of four lines each. For the kill tests (a
 * backup or restore that takes long enough to be killed mid-way) and scripts/backup_bench.ts.
 */

export interface BulkCounts {
  accounts: number;
  products: number;
  /** Transaction lines; four per transaction. */
  lines: number;
}

/** The statements that add `counts` rows (ids derived from `tag`, so several runs can add). */
export function bulkStatements(counts: BulkCounts, tag = "b", employeeNumber = "9999"): string[] {
  const sales = Math.ceil(counts.lines / 4);
  const user = `md5('${tag}-user')::uuid`;
  const location = `md5('${tag}-location')::uuid`;
  const register = `md5('${tag}-register')::uuid`;
  return [
    `INSERT INTO users (id, email, first_name, last_name, employee_number)
       VALUES (${user}, '${tag}-clerk@bulk.test', 'Bulk', 'Clerk', '${employeeNumber}')`,
    `INSERT INTO locations (id, name) VALUES (${location}, 'Bulk store ${tag}')`,
    `INSERT INTO registers (id, name, location_id) VALUES (${register}, 'Bulk ${tag}', ${location})`,
    // Each side's copy of the other's names as the use cases write them (accounts_repo.ts
    // refreshMemberSearch): its one member's lowered text; the account's name.
    `INSERT INTO accounts (id, account_number, name, email, phone, created_at, updated_at,
         member_search)
       SELECT md5('${tag}-a' || i)::uuid, '${tag}-' || lpad(i::text, 7, '0'),
         'Household ' || i, 'household' || i || '@${tag}.bulk.test', '555-' || lpad(i::text, 7, '0'),
         now() - make_interval(secs => i), now(),
         'first' || i || ' last' || i || ' member' || i || '@${tag}.bulk.test'
       FROM generate_series(1, ${counts.accounts}) AS i`,
    `INSERT INTO members (id, account_id, first_name, last_name, email, created_at, updated_at,
         account_name)
       SELECT md5('${tag}-m' || i)::uuid, md5('${tag}-a' || i)::uuid, 'First' || i, 'Last' || i,
         'member' || i || '@${tag}.bulk.test', now(), now(), 'Household ' || i
       FROM generate_series(1, ${counts.accounts}) AS i`,
    `INSERT INTO products (id, name, sku, type, price, cost, created_at, updated_at)
       SELECT md5('${tag}-p' || i)::uuid, 'Product ' || i || E' with\\ttab', '${tag}-SKU-' || i,
         'standard', ((i % 5000) + 99) / 100.0, ((i % 3000) + 50) / 100.0,
         now() - make_interval(secs => i), now()
       FROM generate_series(1, ${counts.products}) AS i`,
    `INSERT INTO transactions (id, type, status, location_id, register_id, subtotal, total,
         amount_paid, created_by, created_at, updated_at)
       SELECT md5('${tag}-t' || g)::uuid, 'sale', 'pending', ${location}, ${register},
         40, 40, 0, ${user}, now() - make_interval(secs => g), now()
       FROM generate_series(1, ${sales}) AS g`,
    `INSERT INTO transaction_items (id, transaction_id, kind, product_id, description, quantity,
         unit_price, tax_category, gross, net, created_at)
       SELECT md5('${tag}-i' || g || '-' || k)::uuid, md5('${tag}-t' || g)::uuid, 'sale',
         md5('${tag}-p' || (((g * 4 + k) % ${counts.products}) + 1))::uuid, 'Bulk line ' || k,
         1, 10, 'goods', 10, 10, now()
       FROM generate_series(1, ${sales}) AS g, generate_series(1, 4) AS k`,
  ];
}
