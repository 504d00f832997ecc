import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE SEQUENCE account_number_seq`.execute(db);

  // `search` folds the searched columns into one lower-case text with one trigram index,
  // so `q` (ILIKE '%…%') is an index scan, never a table scan.
  await sql`
    CREATE TABLE accounts (
      id uuid PRIMARY KEY,
      account_number text NOT NULL UNIQUE,
      name text NOT NULL,
      email text,
      phone text,
      address jsonb,
      primary_member_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      search text GENERATED ALWAYS AS (
        lower(name || ' ' || account_number || ' ' || coalesce(email, '') || ' ' ||
          coalesce(phone, ''))
      ) STORED
    )`.execute(db);
  await sql`CREATE INDEX accounts_search_trgm ON accounts USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX accounts_name_trgm ON accounts USING gin (name gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX accounts_name_idx ON accounts (name)`.execute(db);
  await sql`CREATE INDEX accounts_created_at_idx ON accounts (created_at)`.execute(db);

  await sql`
    CREATE TABLE members (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id),
      first_name text NOT NULL,
      last_name text NOT NULL,
      date_of_birth date,
      is_minor boolean NOT NULL DEFAULT false,
      email text,
      phone text,
      address jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      search text GENERATED ALWAYS AS (
        lower(first_name || ' ' || last_name || ' ' || coalesce(email, ''))
      ) STORED,
      CONSTRAINT members_account_id_id_key UNIQUE (account_id, id)
    )`.execute(db);
  await sql`CREATE INDEX members_search_trgm ON members USING gin (search gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX members_account_created_idx ON members (account_id, created_at, id)`
    .execute(db);
  await sql`CREATE INDEX members_last_name_idx ON members (last_name, first_name)`.execute(db);
  await sql`CREATE INDEX members_created_at_idx ON members (created_at)`.execute(db);

  // The primary member is always a member OF THAT account (or null): checked at commit, so a
  // transaction may move or delete the primary and repair the pointer in any order.
  await sql`
    ALTER TABLE accounts ADD CONSTRAINT accounts_primary_member_fkey
      FOREIGN KEY (id, primary_member_id) REFERENCES members (account_id, id)
      DEFERRABLE INITIALLY DEFERRED`.execute(db);

  await sql`
    CREATE TABLE id_types (
      id uuid PRIMARY KEY,
      value text NOT NULL UNIQUE CHECK (value ~ '^[a-z][a-z0-9]*(_[a-z0-9]+)*$'),
      label text NOT NULL,
      is_built_in boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE member_identifiers (
      id uuid PRIMARY KEY,
      member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
      id_type text NOT NULL REFERENCES id_types (value),
      id_number text NOT NULL,
      issuing_state text,
      issued_date date,
      expires_date date,
      front_file_id uuid,
      back_file_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX member_identifiers_member_idx ON member_identifiers (member_id, created_at)`
    .execute(db);

  await sql`
    CREATE TABLE payment_methods (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id),
      type text NOT NULL CHECK (type IN ('card', 'ach', 'check', 'other')),
      brand text,
      last4 text CHECK (last4 ~ '^[0-9]{4}$'),
      exp_month smallint CHECK (exp_month BETWEEN 1 AND 12),
      exp_year smallint CHECK (exp_year BETWEEN 2000 AND 2200),
      processor text,
      processor_payment_method_id text,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX payment_methods_account_idx ON payment_methods (account_id, created_at)`
    .execute(db);
  await sql`
    CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (account_id)
      WHERE is_default`.execute(db);

  await sql`
    CREATE TABLE tax_exemptions (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id),
      certificate_number text NOT NULL,
      issuing_state text,
      reason text,
      expires_date date,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'revoked')),
      approved_at timestamptz,
      approved_by uuid,
      revoked_at timestamptz,
      revoked_by uuid,
      revoke_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX tax_exemptions_account_idx ON tax_exemptions (account_id, status)`
    .execute(db);

  await sql`
    CREATE TABLE processor_links (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id),
      processor text NOT NULL,
      external_customer_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX processor_links_external_key
      ON processor_links (lower(processor), external_customer_id)`.execute(db);
  await sql`CREATE INDEX processor_links_account_idx ON processor_links (account_id, created_at)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_primary_member_fkey`
    .execute(db);
  for (
    const table of [
      "processor_links",
      "tax_exemptions",
      "payment_methods",
      "member_identifiers",
      "id_types",
      "members",
      "accounts",
    ]
  ) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`DROP SEQUENCE IF EXISTS account_number_seq`.execute(db);
}
