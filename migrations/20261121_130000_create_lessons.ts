import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);

  await sql`
    CREATE TABLE lesson_types (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text,
      duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
      rate_weekly numeric(12,2),
      rate_monthly numeric(12,2),
      rate_quarterly numeric(12,2),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX lesson_types_name_trgm_idx ON lesson_types
    USING gin (lower(name) gin_trgm_ops)`.execute(db);

  await sql`
    CREATE TABLE instructors (
      id uuid PRIMARY KEY,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      email text,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX instructors_user_id_key ON instructors (user_id)
    WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX instructors_search_trgm_idx ON instructors
    USING gin ((lower(first_name || ' ' || last_name || ' ' || coalesce(email, ''))) gin_trgm_ops)`
    .execute(db);

  await sql`
    CREATE TABLE instructor_blocked_dates (
      id uuid PRIMARY KEY,
      instructor_id uuid NOT NULL REFERENCES instructors (id) ON DELETE CASCADE,
      date date NOT NULL,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT instructor_blocked_dates_instructor_date_key UNIQUE (instructor_id, date)
    )`.execute(db);
  await sql`CREATE INDEX instructor_blocked_dates_date_idx ON instructor_blocked_dates (date)`
    .execute(db);

  await sql`
    CREATE TABLE store_closures (
      id uuid PRIMARY KEY,
      start_date date NOT NULL,
      end_date date NOT NULL,
      reason text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (end_date >= start_date)
    )`.execute(db);
  await sql`CREATE INDEX store_closures_dates_idx ON store_closures (start_date, end_date)`
    .execute(db);

  // The overlap rule lives here: two active slots of one instructor on one weekday may not
  // overlap in time ([start, end) ranges, so touching end-to-start is allowed).
  await sql`
    CREATE TABLE schedule_slots (
      id uuid PRIMARY KEY,
      instructor_id uuid NOT NULL REFERENCES instructors (id),
      lesson_type_id uuid NOT NULL REFERENCES lesson_types (id),
      day_of_week smallint NOT NULL CHECK (day_of_week BETWEEN 0 AND 6),
      start_minute integer NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
      duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
      end_minute integer GENERATED ALWAYS AS (start_minute + duration_minutes) STORED,
      max_students integer NOT NULL CHECK (max_students BETWEEN 1 AND 1000),
      rate_weekly numeric(12,2),
      rate_monthly numeric(12,2),
      rate_quarterly numeric(12,2),
      location_id uuid REFERENCES locations (id),
      room text,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (start_minute + duration_minutes <= 1440),
      CONSTRAINT schedule_slots_no_overlap EXCLUDE USING gist (
        instructor_id WITH =,
        day_of_week WITH =,
        int4range(start_minute, start_minute + duration_minutes) WITH &&
      ) WHERE (is_active)
    )`.execute(db);
  await sql`CREATE INDEX schedule_slots_lesson_type_idx ON schedule_slots (lesson_type_id)`
    .execute(db);
  await sql`CREATE INDEX schedule_slots_day_idx ON schedule_slots (day_of_week, start_minute)`
    .execute(db);

  await sql`
    CREATE TABLE enrollments (
      id uuid PRIMARY KEY,
      member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
      slot_id uuid NOT NULL REFERENCES schedule_slots (id),
      status text NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'paused', 'withdrawn', 'completed')),
      start_date date NOT NULL,
      end_date date,
      billing_interval text NOT NULL CHECK (billing_interval IN ('weekly', 'monthly', 'quarterly')),
      billing_unit text,
      rate numeric(12,2),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (end_date IS NULL OR end_date >= start_date)
    )`.execute(db);
  await sql`CREATE INDEX enrollments_slot_status_idx ON enrollments (slot_id, status)`.execute(db);
  await sql`CREATE INDEX enrollments_member_status_idx ON enrollments (member_id, status)`
    .execute(db);

  await sql`
    CREATE TABLE lesson_sessions (
      id uuid PRIMARY KEY,
      enrollment_id uuid NOT NULL REFERENCES enrollments (id) ON DELETE CASCADE,
      slot_id uuid NOT NULL REFERENCES schedule_slots (id),
      member_id uuid NOT NULL,
      instructor_id uuid NOT NULL REFERENCES instructors (id),
      substitute_instructor_id uuid REFERENCES instructors (id),
      date date NOT NULL,
      start_minute integer NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
      end_minute integer NOT NULL CHECK (end_minute > start_minute AND end_minute <= 1440),
      status text NOT NULL
        CHECK (status IN ('scheduled', 'attended', 'missed', 'makeup', 'cancelled')),
      notes text,
      notes_completed_at timestamptz,
      makeup_for_session_id uuid REFERENCES lesson_sessions (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // One generated session per enrollment and date; makeups are extra sessions (one per
  // missed or cancelled session).
  await sql`CREATE UNIQUE INDEX lesson_sessions_enrollment_date_key
    ON lesson_sessions (enrollment_id, date) WHERE makeup_for_session_id IS NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX lesson_sessions_makeup_for_key
    ON lesson_sessions (makeup_for_session_id) WHERE makeup_for_session_id IS NOT NULL`
    .execute(db);
  await sql`CREATE INDEX lesson_sessions_date_idx ON lesson_sessions (date)`.execute(db);
  await sql`CREATE INDEX lesson_sessions_slot_date_idx ON lesson_sessions (slot_id, date)`
    .execute(db);
  await sql`CREATE INDEX lesson_sessions_member_date_idx ON lesson_sessions (member_id, date)`
    .execute(db);
  await sql`CREATE INDEX lesson_sessions_instructor_date_idx
    ON lesson_sessions (instructor_id, date)`.execute(db);
  await sql`CREATE INDEX lesson_sessions_substitute_date_idx
    ON lesson_sessions (substitute_instructor_id, date)
    WHERE substitute_instructor_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE grading_scales (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX grading_scales_one_default_key ON grading_scales (is_default)
    WHERE is_default`.execute(db);
  await sql`CREATE INDEX grading_scales_name_trgm_idx ON grading_scales
    USING gin (lower(name) gin_trgm_ops)`.execute(db);

  await sql`
    CREATE TABLE grading_scale_levels (
      id uuid PRIMARY KEY,
      scale_id uuid NOT NULL REFERENCES grading_scales (id) ON DELETE CASCADE,
      value text NOT NULL,
      label text NOT NULL,
      numeric_score numeric(8,2),
      color text,
      sort_order integer NOT NULL DEFAULT 0,
      CONSTRAINT grading_scale_levels_scale_value_key UNIQUE (scale_id, value)
    )`.execute(db);

  await sql`
    CREATE TABLE lesson_plans (
      id uuid PRIMARY KEY,
      enrollment_id uuid NOT NULL REFERENCES enrollments (id) ON DELETE CASCADE,
      title text NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'archived')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX lesson_plans_one_active_key ON lesson_plans (enrollment_id)
    WHERE status = 'active'`.execute(db);
  await sql`CREATE INDEX lesson_plans_enrollment_idx ON lesson_plans (enrollment_id)`.execute(db);

  await sql`
    CREATE TABLE lesson_plan_sections (
      id uuid PRIMARY KEY,
      plan_id uuid NOT NULL REFERENCES lesson_plans (id) ON DELETE CASCADE,
      title text NOT NULL,
      sort_order integer NOT NULL DEFAULT 0
    )`.execute(db);
  await sql`CREATE INDEX lesson_plan_sections_plan_idx ON lesson_plan_sections (plan_id)`
    .execute(db);

  await sql`
    CREATE TABLE lesson_plan_items (
      id uuid PRIMARY KEY,
      plan_id uuid NOT NULL REFERENCES lesson_plans (id) ON DELETE CASCADE,
      section_id uuid NOT NULL REFERENCES lesson_plan_sections (id) ON DELETE CASCADE,
      title text NOT NULL,
      description text,
      sort_order integer NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'not_started'
        CHECK (status IN ('not_started', 'in_progress', 'mastered', 'skipped')),
      grade_level_id uuid REFERENCES grading_scale_levels (id) ON DELETE SET NULL,
      notes text,
      started_date date,
      mastered_date date,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX lesson_plan_items_plan_idx ON lesson_plan_items (plan_id)`.execute(db);
  await sql`CREATE INDEX lesson_plan_items_section_idx ON lesson_plan_items (section_id)`
    .execute(db);
  await sql`CREATE INDEX lesson_plan_items_grade_level_idx ON lesson_plan_items (grade_level_id)`
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (
    const table of [
      "lesson_plan_items",
      "lesson_plan_sections",
      "lesson_plans",
      "grading_scale_levels",
      "grading_scales",
      "lesson_sessions",
      "enrollments",
      "schedule_slots",
      "store_closures",
      "instructor_blocked_dates",
      "instructors",
      "lesson_types",
    ]
  ) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
}
