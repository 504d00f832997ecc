import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Outgoing mail, written in the transaction of the action that sends it. The body is
  // encrypted (it may hold a reset link) and cleared once the message has been delivered.
  await db.schema.createTable("email_outbox")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body_encrypted", "text")
    .addColumn(
      "status",
      "text",
      (c) => c.notNull().defaultTo("pending").check(sql`status IN ('pending', 'sent', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("sent_at", "timestamptz")
    .execute();
  await sql`CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at)
    WHERE status = 'pending'`.execute(db);

  await db.schema.createTable("audit_log")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("actor_id", "uuid")
    .addColumn("actor_email", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity_type", "text")
    .addColumn("entity_id", "text")
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await sql`CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, at DESC)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").ifExists().execute();
  await db.schema.dropTable("email_outbox").ifExists().execute();
}
