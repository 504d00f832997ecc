// deno-lint-ignore-file no-explicit-any
/**
 * Names, not UUIDs, wherever a person reads (issue 43): lesson sessions carry their member,
 * instructor, substitute, lesson type and room names (in one statement per page), and the
 * refusals of scheduling and enrolling name the instructor, the slots and the member.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { countingStatements } from "../_helpers/query_count.ts";
import { listSessions } from "../../app/lessons/sessions_repo.ts";
import { sessionListQuery } from "../../app/lessons/lesson_schemas.ts";
import {
  enroll,
  instructor,
  lessonsSuite,
  type LessonsWorld,
  lessonType,
  member,
  post,
  slot,
} from "./_fixtures.ts";

let t: TestApp;
let w: LessonsWorld;

// Tuesday 1 December 2026 in the store's zone (America/New_York).
const NOW = new Date("2026-12-01T15:00:00Z");

lessonsSuite((s) => ({ t, u: w } = s), { clock: { now: () => NOW } });

const nameOf = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

async function memberName(memberId: string): Promise<string> {
  const row = await t.deps.db.selectFrom("members").select(["first_name", "last_name"])
    .where("id", "=", memberId).executeTakeFirstOrThrow();
  return `${row.first_name} ${row.last_name}`;
}

async function refusal(method: string, path: string, body: unknown): Promise<any> {
  const res = await api(t.app, method, path, { token: w.editor.token, body });
  assertEquals(res.status, 409, res.text);
  return res.body;
}

Deno.test("lesson sessions carry member, instructor, substitute, lesson type and room names", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const substitute = await instructor(w);
  const s = await slot(w, teacher.id, type.id, { dayOfWeek: 2, room: "Room 2", maxStudents: 5 });
  const students = [await member(w), await member(w), await member(w)];
  for (const id of students) await enroll(w, id, s.id, { startDate: "2026-12-01" });
  const generated = await post(w, "/v1/lesson-sessions/generate", {
    from: "2026-12-01",
    to: "2026-12-15",
    slotId: s.id,
  }, 200);
  assertEquals(generated.created, 9);

  const list = await api(t.app, "GET", `/v1/lesson-sessions?slotId=${s.id}&limit=100`, {
    token: w.editor.token,
  });
  assertEquals(list.status, 200, list.text);
  assertEquals(list.body.data.length, 9);
  const names = new Set(await Promise.all(students.map(memberName)));
  for (const session of list.body.data) {
    assertEquals(names.has(session.memberName), true, session.memberName);
    assertEquals(
      {
        instructorName: session.instructorName,
        substituteInstructorName: session.substituteInstructorName,
        lessonTypeId: session.lessonTypeId,
        lessonTypeName: session.lessonTypeName,
        room: session.room,
      },
      {
        instructorName: nameOf(teacher),
        substituteInstructorName: null,
        lessonTypeId: type.id,
        lessonTypeName: type.name,
        room: "Room 2",
      },
    );
  }

  const first = list.body.data[0];
  const patched = await api(t.app, "PATCH", `/v1/lesson-sessions/${first.id}`, {
    token: w.editor.token,
    body: { substituteInstructorId: substitute.id, status: "missed" },
  });
  assertEquals(patched.status, 200, patched.text);
  assertEquals(patched.body.substituteInstructorName, nameOf(substitute));
  assertEquals(patched.body.memberName, first.memberName);
  const got = await api(t.app, "GET", `/v1/lesson-sessions/${first.id}`, {
    token: w.editor.token,
  });
  assertEquals(got.body, patched.body);
  const makeup = await post(w, `/v1/lesson-sessions/${first.id}/makeup`, { date: "2026-12-03" });
  assertEquals([makeup.memberName, makeup.lessonTypeName], [first.memberName, type.name]);

  // One statement for a page of sessions with their names, whatever the page holds.
  const counted = countingStatements(t.deps.db);
  const page = await listSessions(counted.db, {
    ...sessionListQuery.parse({}),
    slotId: s.id,
    limit: 100,
  });
  assertEquals(page.data.length, 10);
  assertEquals(counted.count(), 1);
});

Deno.test("refusals name the instructor, the slots and the member instead of their ids", async () => {
  const piano = await lessonType(w, { name: "Piano" });
  const guitar = await lessonType(w, { name: "Bass guitar" });
  const teacher = await instructor(w, { firstName: "Jane", lastName: "Doe" });
  const busy = await slot(w, teacher.id, guitar.id, {
    dayOfWeek: 1,
    startTime: "15:45",
    room: "Room 2",
  });
  const overlap = await refusal("POST", "/v1/schedule-slots", {
    instructorId: teacher.id,
    lessonTypeId: piano.id,
    dayOfWeek: 1,
    startTime: "16:00",
    durationMinutes: 30,
  });
  assertEquals(overlap.code, "slot_overlap");
  assertEquals(
    overlap.detail,
    "Cannot schedule Monday 16:00-16:30 for Jane Doe: it overlaps Bass guitar on Monday " +
      "15:45-16:15 in Room 2",
  );

  const full = await slot(w, teacher.id, piano.id, {
    dayOfWeek: 3,
    startTime: "10:00",
    maxStudents: 1,
  });
  await enroll(w, await member(w), full.id);
  const mia = await member(w, "Mia");
  const slotFull = await refusal("POST", "/v1/enrollments", {
    memberId: mia,
    slotId: full.id,
    startDate: "2026-12-01",
    billingInterval: "monthly",
  });
  assertEquals(slotFull.code, "slot_full");
  assertEquals(
    slotFull.detail,
    `Cannot enroll ${await memberName(
      mia,
    )}: Piano with Jane Doe on Wednesday 10:00-10:30 is full (1)`,
  );

  await enroll(w, mia, busy.id);
  const other = await instructor(w, { firstName: "Bob", lastName: "Li" });
  const clashing = await slot(w, other.id, piano.id, { dayOfWeek: 1, startTime: "16:00" });
  const doubleBooked = await refusal("POST", "/v1/enrollments", {
    memberId: mia,
    slotId: clashing.id,
    startDate: "2026-12-01",
    billingInterval: "monthly",
  });
  assertEquals(doubleBooked.code, "double_booked");
  assertEquals(
    doubleBooked.detail,
    `Cannot enroll ${await memberName(mia)}: they already take Bass guitar with Jane Doe on ` +
      "Monday 15:45-16:15 in Room 2 (enrollment from 2026-12-01)",
  );

  // A substitute who teaches a slot at that time.
  await post(w, "/v1/lesson-sessions/generate", {
    from: "2026-12-07",
    to: "2026-12-07",
    slotId: busy.id,
  }, 200);
  const sessions = await api(t.app, "GET", `/v1/lesson-sessions?slotId=${busy.id}`, {
    token: w.editor.token,
  });
  const session = sessions.body.data[0];
  const unavailable = await refusal("PATCH", `/v1/lesson-sessions/${session.id}`, {
    substituteInstructorId: other.id,
  });
  assertEquals(unavailable.code, "substitute_unavailable");
  assertEquals(unavailable.detail, "Bob Li teaches Piano on Monday 16:00-16:30 at that time");
});
