import { type Kysely, sql } from "kysely";

/**
 * Point of sale: registers, drawer sessions (one open per register, enforced by a partial
 * unique index), cash adjustments, transactions with their items and payments.
 * `transactions.repair_ticket_id` has no foreign key on purpose: repair tickets belong to
 * another feature (reached through `app/pos/repair_ticket_port.ts`).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("registers")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("location_id", "uuid", (c) => c.notNull().references("locations.id"))
    .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX registers_location_name_key ON registers (location_id, lower(name))`
    .execute(db);
  await sql`CREATE INDEX registers_name_idx ON registers (name, id)`.execute(db);

  await db.schema.createTable("drawer_sessions")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("register_id", "uuid", (c) => c.notNull().references("registers.id"))
    .addColumn("location_id", "uuid", (c) => c.notNull().references("locations.id"))
    .addColumn(
      "status",
      "text",
      (c) => c.notNull().defaultTo("open").check(sql`status IN ('open', 'closed')`),
    )
    .addColumn(
      "opening_balance",
      sql`numeric(12,2)`,
      (c) => c.notNull().check(sql`opening_balance >= 0`),
    )
    .addColumn("closing_balance", sql`numeric(12,2)`, (c) => c.check(sql`closing_balance >= 0`))
    .addColumn("expected_balance", sql`numeric(12,2)`)
    .addColumn("over_short", sql`numeric(12,2)`)
    .addColumn("notes", "text")
    .addColumn("z_report", "jsonb")
    .addColumn("opened_by", "uuid", (c) => c.references("users.id"))
    .addColumn("closed_by", "uuid", (c) => c.references("users.id"))
    .addColumn("opened_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("closed_at", "timestamptz")
    .addCheckConstraint(
      "drawer_sessions_closed_fields",
      sql`status = 'open' OR (closing_balance IS NOT NULL AND closed_at IS NOT NULL)`,
    )
    .execute();
  await sql`CREATE UNIQUE INDEX drawer_sessions_one_open_per_register ON drawer_sessions (register_id) WHERE status = 'open'`
    .execute(db);
  await sql`CREATE INDEX drawer_sessions_location_status_idx ON drawer_sessions (location_id, status)`
    .execute(db);
  await sql`CREATE INDEX drawer_sessions_opened_idx ON drawer_sessions (opened_at, id)`
    .execute(db);
  await sql`CREATE INDEX drawer_sessions_register_idx ON drawer_sessions (register_id, opened_at)`
    .execute(db);
  await sql`CREATE INDEX drawer_sessions_closed_idx ON drawer_sessions (location_id, closed_at)`
    .execute(db);

  await db.schema.createTable("drawer_adjustments")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn(
      "drawer_session_id",
      "uuid",
      (c) => c.notNull().references("drawer_sessions.id"),
    )
    .addColumn("direction", "text", (c) => c.notNull().check(sql`direction IN ('in', 'out')`))
    .addColumn("amount", sql`numeric(12,2)`, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("created_by", "uuid", (c) => c.references("users.id"))
    .addColumn("approved_by", "uuid", (c) => c.references("users.id"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX drawer_adjustments_session_idx ON drawer_adjustments (drawer_session_id, created_at)`
    .execute(db);

  await db.schema.createTable("transactions")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("number", "bigint", (c) => c.notNull().generatedByDefaultAsIdentity().unique())
    .addColumn(
      "type",
      "text",
      (c) => c.notNull().check(sql`type IN ('sale', 'repair_payment', 'refund')`),
    )
    .addColumn(
      "status",
      "text",
      (c) => c.notNull().check(sql`status IN ('pending', 'complete', 'voided')`),
    )
    .addColumn("location_id", "uuid", (c) => c.notNull().references("locations.id"))
    .addColumn("register_id", "uuid", (c) => c.references("registers.id"))
    .addColumn("account_id", "uuid", (c) => c.references("accounts.id"))
    .addColumn("drawer_session_id", "uuid", (c) => c.references("drawer_sessions.id"))
    .addColumn("repair_ticket_id", "uuid")
    .addColumn("original_transaction_id", "uuid", (c) => c.references("transactions.id"))
    .addColumn(
      "discount_kind",
      "text",
      (c) => c.check(sql`discount_kind IN ('percent', 'amount')`),
    )
    .addColumn("discount_value", sql`numeric(12,2)`)
    .addColumn("subtotal", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("discount_total", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("tax_total", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("total", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("amount_paid", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("tax_exempt", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("reason", "text")
    .addColumn("void_reason", "text")
    .addColumn("created_by", "uuid", (c) => c.references("users.id"))
    .addColumn("approved_by", "uuid", (c) => c.references("users.id"))
    .addColumn("completed_by", "uuid", (c) => c.references("users.id"))
    .addColumn("voided_by", "uuid", (c) => c.references("users.id"))
    .addColumn("void_approved_by", "uuid", (c) => c.references("users.id"))
    .addColumn("completed_at", "timestamptz")
    .addColumn("voided_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "transactions_refund_link",
      sql`(type = 'refund') = (original_transaction_id IS NOT NULL)`,
    )
    .addCheckConstraint(
      "transactions_complete_session",
      sql`status = 'pending' OR type = 'refund' OR drawer_session_id IS NOT NULL OR status = 'voided'`,
    )
    .execute();
  await sql`CREATE INDEX transactions_created_idx ON transactions (created_at, id)`.execute(db);
  await sql`CREATE INDEX transactions_location_created_idx ON transactions (location_id, created_at)`
    .execute(db);
  await sql`CREATE INDEX transactions_account_idx ON transactions (account_id, created_at) WHERE account_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX transactions_session_idx ON transactions (drawer_session_id) WHERE drawer_session_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX transactions_status_idx ON transactions (status, created_at)`.execute(db);
  await sql`CREATE INDEX transactions_original_idx ON transactions (original_transaction_id) WHERE original_transaction_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX transactions_repair_ticket_idx ON transactions (repair_ticket_id) WHERE repair_ticket_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX transactions_total_idx ON transactions (total, id)`.execute(db);

  await db.schema.createTable("transaction_items")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn(
      "transaction_id",
      "uuid",
      (c) => c.notNull().references("transactions.id").onDelete("cascade"),
    )
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind IN ('sale', 'labor', 'part')`))
    .addColumn("product_id", "uuid", (c) => c.references("products.id"))
    .addColumn("unit_id", "uuid", (c) => c.references("units.id"))
    .addColumn("original_item_id", "uuid", (c) => c.references("transaction_items.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("unit_price", sql`numeric(12,2)`, (c) => c.notNull().check(sql`unit_price >= 0`))
    .addColumn(
      "tax_category",
      "text",
      (c) => c.notNull().check(sql`tax_category IN ('goods', 'service')`),
    )
    .addColumn("is_consumable", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("gross", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("discount", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("net", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("tax", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_quantity", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_net", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_tax", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "transaction_items_refund_bounds",
      sql`refunded_quantity >= 0 AND refunded_quantity <= quantity`,
    )
    .execute();
  await sql`CREATE INDEX transaction_items_transaction_idx ON transaction_items (transaction_id, created_at)`
    .execute(db);
  await sql`CREATE INDEX transaction_items_description_trgm_idx ON transaction_items USING gin (description gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX transaction_items_product_idx ON transaction_items (product_id) WHERE product_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX transaction_items_unit_idx ON transaction_items (unit_id) WHERE unit_id IS NOT NULL`
    .execute(db);

  await db.schema.createTable("payments")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn(
      "transaction_id",
      "uuid",
      (c) => c.notNull().references("transactions.id").onDelete("cascade"),
    )
    .addColumn(
      "method",
      "text",
      (c) => c.notNull().check(sql`method IN ('cash', 'card', 'check', 'store_credit', 'other')`),
    )
    .addColumn("amount", sql`numeric(12,2)`, (c) => c.notNull())
    .addColumn("tendered", sql`numeric(12,2)`, (c) => c.notNull())
    .addColumn("change", sql`numeric(12,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn("reference", "text")
    .addColumn("is_refund", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_by", "uuid", (c) => c.references("users.id"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "payments_sign",
      sql`(is_refund AND amount < 0) OR (NOT is_refund AND amount > 0)`,
    )
    .execute();
  await sql`CREATE INDEX payments_transaction_idx ON payments (transaction_id, created_at)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (
    const table of [
      "payments",
      "transaction_items",
      "transactions",
      "drawer_adjustments",
      "drawer_sessions",
      "registers",
    ]
  ) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
