/** Table types of the lessons feature (migration 20261121_130000_create_lessons). */
import type { ColumnType, Generated, RawBuilder } from "kysely";
import type { DateColumn, Numeric, Timestamp } from "../db/column_types.ts";

export interface LessonTypeTable {
  id: string;
  name: string;
  description: string | null;
  duration_minutes: number;
  rate_weekly: Numeric | null;
  rate_monthly: Numeric | null;
  rate_quarterly: Numeric | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstructorTable {
  id: string;
  user_id: string | null;
  first_name: string;
  last_name: string;
  email: string | null;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InstructorBlockedDateTable {
  id: string;
  instructor_id: string;
  date: DateColumn;
  reason: string | null;
  created_at: Timestamp;
}

export interface StoreClosureTable {
  id: string;
  start_date: DateColumn;
  end_date: DateColumn;
  reason: string;
  created_at: Timestamp;
}

export interface ScheduleSlotTable {
  id: string;
  instructor_id: string;
  lesson_type_id: string;
  day_of_week: number;
  start_minute: number;
  duration_minutes: number;
  end_minute: ColumnType<number, never, never>;
  max_students: number;
  rate_weekly: Numeric | null;
  rate_monthly: Numeric | null;
  rate_quarterly: Numeric | null;
  location_id: string | null;
  room: string | null;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EnrollmentTable {
  id: string;
  member_id: string;
  slot_id: string;
  status: Generated<string>;
  start_date: DateColumn;
  end_date: DateColumn | null;
  billing_interval: string;
  billing_unit: string | null;
  rate: Numeric | null;
  /**
   * The member's full name, lowered: the list's `q` (migration
   * 20261203_100000_rental_enrollment_name_search); written only by enrollments_repo.ts.
   */
  search: ColumnType<string, RawBuilder<string>, RawBuilder<string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LessonSessionTable {
  id: string;
  enrollment_id: string;
  slot_id: string;
  member_id: string;
  instructor_id: string;
  substitute_instructor_id: string | null;
  date: DateColumn;
  start_minute: number;
  end_minute: number;
  status: string;
  notes: string | null;
  notes_completed_at: Timestamp | null;
  makeup_for_session_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GradingScaleTable {
  id: string;
  name: string;
  description: string | null;
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GradingScaleLevelTable {
  id: string;
  scale_id: string;
  value: string;
  label: string;
  numeric_score: Numeric | null;
  color: string | null;
  sort_order: number;
}

export interface LessonPlanTable {
  id: string;
  enrollment_id: string;
  title: string;
  status: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LessonPlanSectionTable {
  id: string;
  plan_id: string;
  title: string;
  sort_order: number;
}

export interface LessonPlanItemTable {
  id: string;
  plan_id: string;
  section_id: string;
  title: string;
  description: string | null;
  sort_order: number;
  status: Generated<string>;
  grade_level_id: string | null;
  notes: string | null;
  started_date: DateColumn | null;
  mastered_date: DateColumn | null;
  updated_at: Timestamp;
}

export interface LessonsTables {
  lesson_types: LessonTypeTable;
  instructors: InstructorTable;
  instructor_blocked_dates: InstructorBlockedDateTable;
  store_closures: StoreClosureTable;
  schedule_slots: ScheduleSlotTable;
  enrollments: EnrollmentTable;
  lesson_sessions: LessonSessionTable;
  grading_scales: GradingScaleTable;
  grading_scale_levels: GradingScaleLevelTable;
  lesson_plans: LessonPlanTable;
  lesson_plan_sections: LessonPlanSectionTable;
  lesson_plan_items: LessonPlanItemTable;
}
