/**
 * Session generation for a whole year on PostgreSQL: 500 active enrollments (100 weekly
 * slots × 5 students) → 26,000 sessions, created through the same use case as
 * `POST /v1/lesson-sessions/generate` and `ops lessons generate`. Times the first run (creates
 * every session) and reports a second run (all existing) beside it.
 *
 * Target: the first run under 3 s.
 */
import { uuidv7 } from "../../app/ids.ts";
import { insertInstructor } from "../../app/lessons/instructors_repo.ts";
import { insertLessonType } from "../../app/lessons/lesson_types_repo.ts";
import { createSlot } from "../../app/lessons/slots.ts";
import { enrollMember } from "../../app/lessons/enrollments.ts";
import { generateSessions } from "../../app/lessons/generate_sessions.ts";
import type { TimedScenario } from "./_scenario.ts";

const SLOTS = 100;
const STUDENTS_PER_SLOT = 5;
const WINDOW = { from: "2027-01-01", to: "2027-12-31" };

export const lessonsGenerate: TimedScenario<{ enrollments: number }> = {
  kind: "timed",
  name: "lessons: generate a year for 500 enrollments",
  async seed({ db, deps }) {
    const appDeps = deps();
    const now = new Date();
    const type = await insertLessonType(db, {
      id: uuidv7(),
      name: "Piano",
      description: null,
      durationMinutes: 30,
      ratePresets: { monthly: "90.00" },
      now,
    });
    // 20 instructors × 5 weekdays = 100 slots; 5 students each; every member one enrollment.
    const accountId = uuidv7();
    await db.insertInto("accounts").values({
      id: accountId,
      account_number: "A-BENCH",
      name: "Bench family",
      created_at: now,
      updated_at: now,
    } as never).execute();
    const memberIds = Array.from({ length: SLOTS * STUDENTS_PER_SLOT }, () => uuidv7());
    await db.insertInto("members").values(memberIds.map((id, i) => ({
      id,
      account_id: accountId,
      first_name: "Student",
      last_name: `No${i}`,
      created_at: now,
      updated_at: now,
    })) as never).execute();
    let memberIndex = 0;
    for (let i = 0; i < SLOTS / 5; i++) {
      const instructor = await insertInstructor(db, {
        id: uuidv7(),
        userId: null,
        firstName: "Teacher",
        lastName: `No${i}`,
        email: null,
        isActive: true,
        now,
      });
      for (let day = 1; day <= 5; day++) {
        const slot = await createSlot(appDeps, {
          instructorId: instructor.id,
          lessonTypeId: type.id,
          dayOfWeek: day,
          startTime: "16:00",
          maxStudents: STUDENTS_PER_SLOT,
        });
        for (let s = 0; s < STUDENTS_PER_SLOT; s++) {
          await enrollMember(appDeps, {
            memberId: memberIds[memberIndex++]!,
            slotId: slot.id,
            startDate: WINDOW.from,
            billingInterval: "monthly",
          });
        }
      }
    }
    return { enrollments: memberIds.length };
  },
  async run({ deps }, { enrollments }) {
    let started = performance.now();
    const first = await generateSessions(deps(), WINDOW);
    const firstMs = performance.now() - started;
    started = performance.now();
    const second = await generateSessions(deps(), WINDOW);
    const secondMs = performance.now() - started;
    return {
      ms: Math.round(firstMs),
      details: {
        enrollments,
        window: WINDOW,
        created: first.created,
        secondRun: {
          ms: Math.round(secondMs),
          created: second.created,
          existing: second.skipped.existing,
        },
      },
    };
  },
  targets: { ms: 3000 },
};
