/**
 * Repairs (API §9): service templates, batches, tickets with their status history, line
 * items and notes. Photos are files (entityType repair_ticket, category = phase).
 *
 * - `ticket_number` comes from `repair_ticket_number_seq` (R-000123, formatted by the app):
 *   parallel creates never collide, and the unique index says so.
 * - `search` folds ticket number, item description and serial number into one lower-case
 *   text with a trigram index; `q` also matches the account's name through
 *   `accounts_name_trgm`, so a search never scans the tickets.
 * - `customer_total`/`internal_cost` are the sums of the ticket's lines, rewritten in the
 *   transaction of every line change while the ticket row is locked.
 * - `status_version` counts status changes; history row `seq` = that count, unique per
 *   ticket: a history without gap or duplicate.
 */
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

const TICKET_STATUSES = sql.raw(
  "'new', 'in_transit', 'intake', 'in_progress', 'pending_parts', 'ready_for_pickup', " +
    "'picked_up', 'delivered', 'cancelled'",
);

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE SEQUENCE repair_ticket_number_seq`.execute(db);

  await sql`
    CREATE TABLE service_templates (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text,
      item_category text NOT NULL,
      default_line_items jsonb NOT NULL DEFAULT '[]'::jsonb,
      estimated_minutes integer CHECK (estimated_minutes > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX service_templates_name_idx ON service_templates (name, id) WHERE deleted_at IS NULL`
    .execute(db);
  await sql`CREATE INDEX service_templates_category_idx ON service_templates (lower(item_category)) WHERE deleted_at IS NULL`
    .execute(db);

  await sql`
    CREATE TABLE repair_batches (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      account_id uuid NOT NULL REFERENCES accounts (id),
      notes text,
      status text NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'submitted', 'approved', 'rejected')),
      submitted_at timestamptz,
      submitted_by uuid REFERENCES users (id),
      decided_at timestamptz,
      decided_by uuid REFERENCES users (id),
      decision_note text,
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX repair_batches_account_idx ON repair_batches (account_id, created_at)`
    .execute(db);
  await sql`CREATE INDEX repair_batches_created_idx ON repair_batches (created_at, id)`.execute(db);

  await sql`
    CREATE TABLE repair_tickets (
      id uuid PRIMARY KEY,
      ticket_number text NOT NULL,
      account_id uuid NOT NULL REFERENCES accounts (id),
      member_id uuid REFERENCES members (id),
      status text NOT NULL DEFAULT 'new' CHECK (status IN (${TICKET_STATUSES})),
      status_before_cancel text CHECK (status_before_cancel IN (${TICKET_STATUSES})),
      status_version integer NOT NULL DEFAULT 0,
      status_changed_at timestamptz NOT NULL DEFAULT now(),
      item_description text NOT NULL,
      item_count integer NOT NULL DEFAULT 1 CHECK (item_count > 0),
      serial_number text,
      batch_id uuid REFERENCES repair_batches (id),
      service_template_id uuid REFERENCES service_templates (id),
      estimate numeric(12,2) CHECK (estimate >= 0),
      due_date date,
      location_id uuid REFERENCES locations (id),
      customer_total numeric(12,2) NOT NULL DEFAULT 0,
      internal_cost numeric(12,2) NOT NULL DEFAULT 0,
      estimate_approved_amount numeric(12,2),
      estimate_approved_by_name text,
      estimate_approval_method text
        CHECK (estimate_approval_method IN ('in_person', 'phone', 'email', 'sms')),
      estimate_approval_note text,
      estimate_approval_recorded_by uuid REFERENCES users (id),
      estimate_approved_at timestamptz,
      intake_at timestamptz,
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      search text GENERATED ALWAYS AS (
        lower(ticket_number || ' ' || item_description || ' ' || coalesce(serial_number, ''))
      ) STORED
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX repair_tickets_number_key ON repair_tickets (ticket_number)`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_search_trgm ON repair_tickets USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_account_idx ON repair_tickets (account_id, created_at)`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_batch_idx ON repair_tickets (batch_id) WHERE batch_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_serial_idx ON repair_tickets (lower(serial_number)) WHERE serial_number IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_created_idx ON repair_tickets (created_at, id) WHERE deleted_at IS NULL`
    .execute(db);
  await sql`CREATE INDEX repair_tickets_status_idx ON repair_tickets (status, status_changed_at, id) WHERE deleted_at IS NULL`
    .execute(db);

  await sql`
    CREATE TABLE repair_ticket_history (
      id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL REFERENCES repair_tickets (id),
      seq integer NOT NULL CHECK (seq > 0),
      from_status text NOT NULL CHECK (from_status IN (${TICKET_STATUSES})),
      to_status text NOT NULL CHECK (to_status IN (${TICKET_STATUSES})),
      note text,
      changed_by uuid REFERENCES users (id),
      changed_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT repair_ticket_history_seq_key UNIQUE (ticket_id, seq)
    )`.execute(db);

  await sql`
    CREATE TABLE repair_line_items (
      id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL REFERENCES repair_tickets (id),
      kind text NOT NULL CHECK (kind IN ('labor', 'part')),
      description text NOT NULL,
      quantity integer NOT NULL CHECK (quantity > 0),
      unit_price numeric(12,2) NOT NULL CHECK (unit_price >= 0),
      product_id uuid REFERENCES products (id),
      is_internal boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX repair_line_items_ticket_idx ON repair_line_items (ticket_id, created_at, id)`
    .execute(db);

  await sql`
    CREATE TABLE repair_notes (
      id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL REFERENCES repair_tickets (id),
      content text NOT NULL,
      visibility text NOT NULL CHECK (visibility IN ('internal', 'customer')),
      author_id uuid REFERENCES users (id),
      ticket_status text NOT NULL CHECK (ticket_status IN (${TICKET_STATUSES})),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX repair_notes_ticket_idx ON repair_notes (ticket_id, created_at, id)`
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (
    const table of [
      "repair_notes",
      "repair_line_items",
      "repair_ticket_history",
      "repair_tickets",
      "repair_batches",
      "service_templates",
    ]
  ) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`DROP SEQUENCE IF EXISTS repair_ticket_number_seq`.execute(db);
}
