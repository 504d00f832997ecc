import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
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

// 03:00 UTC on 2 December is still Tuesday 1 December in the store's zone (America/New_York).
const NOW = new Date("2026-12-02T03:00:00Z");

lessonsSuite((s) => ({ t, u: w } = s), { clock: { now: () => NOW } });

async function freshSlot(overrides: Record<string, unknown> = {}) {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const s = await slot(w, teacher.id, type.id, { maxStudents: 10, ...overrides });
  return { slot: s, instructor: teacher };
}

async function generate(body: Record<string, unknown> | undefined, expected = 200) {
  const res = await api(t.app, "POST", "/v1/lesson-sessions/generate", {
    token: w.editor.token,
    body,
  });
  assertEquals(res.status, expected, res.text);
  return res.body;
}

async function sessionsOf(query: string) {
  const res = await api(t.app, "GET", `/v1/lesson-sessions?limit=100&${query}`, {
    token: w.editor.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data as Array<Record<string, unknown> & { id: string; date: string }>;
}

Deno.test("generate without dates covers today .. today + lessonSessionWindowDays in the store's time zone, once", async () => {
  const { slot: s } = await freshSlot({ dayOfWeek: 2, startTime: "17:00" });
  await enroll(w, await member(w), s.id, { startDate: "2026-11-01" });
  const first = await generate(undefined);
  // Store-local today is Tuesday 2026-12-01; 28 days on: Tuesdays 1, 8, 15, 22, 29.
  assertEquals(first, { created: 5, skipped: { existing: 0, blockedDates: 0, closures: 0 } });
  const again = await generate({});
  assertEquals(again, { created: 0, skipped: { existing: 5, blockedDates: 0, closures: 0 } });
  const sessions = await sessionsOf(`slotId=${s.id}`);
  assertEquals(sessions.map((x) => x.date), [
    "2026-12-01",
    "2026-12-08",
    "2026-12-15",
    "2026-12-22",
    "2026-12-29",
  ]);
  const one = sessions[0]!;
  assertEquals(one.startTime, "17:00");
  assertEquals(one.endTime, "17:30");
  assertEquals(one.status, "scheduled");
  assertEquals(one.notesCompletedAt, null);
  assertEquals(one.makeupForSessionId, null);
  assertEquals(one.substituteInstructorId, null);
});

Deno.test("generate skips blocked dates and closures, counts them, and keeps wall-clock times across DST", async () => {
  const { slot: s, instructor: teacher } = await freshSlot({ dayOfWeek: 0, startTime: "01:30" });
  const e = await enroll(w, await member(w), s.id, {
    startDate: "2026-02-01",
    endDate: "2026-03-29",
  });
  await post(w, `/v1/instructors/${teacher.id}/blocked-dates`, { date: "2026-03-15" });
  await post(w, "/v1/store-closures", {
    startDate: "2026-03-21",
    endDate: "2026-03-22",
    reason: "Spring cleaning",
  });
  const result = await generate({ from: "2026-03-01", to: "2026-04-30", slotId: s.id });
  assertEquals(result, { created: 3, skipped: { existing: 0, blockedDates: 1, closures: 1 } });
  const sessions = await sessionsOf(`enrollmentId=${e.id}`);
  // 2026-03-08 is the day New York springs forward; the lesson stays at 01:30 local.
  assertEquals(sessions.map((x) => `${x.date} ${x.startTime}`), [
    "2026-03-01 01:30",
    "2026-03-08 01:30",
    "2026-03-29 01:30",
  ]);
});

Deno.test("generate refuses windows over 366 days, reversed windows and unknown slots with 400", async () => {
  const tooLong = await generate({ from: "2026-01-01", to: "2027-01-03" }, 400);
  assertEquals(tooLong.code, "validation_failed");
  await generate({ from: "2026-01-01", to: "2027-01-02" }, 200);
  await generate({ from: "2026-05-02", to: "2026-05-01" }, 400);
  assertEquals((await generate({ slotId: crypto.randomUUID() }, 400)).code, "invalid_reference");
  await generate({ from: "2026-13-01" }, 400);
  await generate({ extra: true }, 400);
});

Deno.test("generate needs lessons.edit", async () => {
  const viewer = await createUserWithPermissions(t, ["lessons.view", "lessons.teach"]);
  const res = await api(t.app, "POST", "/v1/lesson-sessions/generate", { token: viewer.token });
  assertEquals(res.status, 403);
});

Deno.test("only active enrollments of active slots get sessions, within their own dates", async () => {
  const { slot: s } = await freshSlot({ dayOfWeek: 4 });
  const paused = await enroll(w, await member(w), s.id);
  await post(w, `/v1/enrollments/${paused.id}/status`, { status: "paused" }, 200);
  const late = await enroll(w, await member(w), s.id, { startDate: "2027-01-14" });
  const result = await generate({ from: "2027-01-01", to: "2027-01-31", slotId: s.id });
  assertEquals(result.created, 3);
  assertEquals((await sessionsOf(`enrollmentId=${late.id}`)).map((x) => x.date), [
    "2027-01-14",
    "2027-01-21",
    "2027-01-28",
  ]);
  const { slot: inactive } = await freshSlot({ dayOfWeek: 4, isActive: false });
  const none = await generate({ from: "2027-01-01", to: "2027-01-31", slotId: inactive.id });
  assertEquals(none.created, 0);
});

Deno.test("concurrent generation runs all succeed and create each session exactly once", async () => {
  const { slot: s } = await freshSlot({ dayOfWeek: 1, startTime: "08:00", maxStudents: 20 });
  for (let i = 0; i < 10; i++) await enroll(w, await member(w), s.id, { startDate: "2027-01-01" });
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      api(t.app, "POST", "/v1/lesson-sessions/generate", {
        token: w.editor.token,
        body: { from: "2027-01-01", to: "2027-12-31", slotId: s.id },
      })),
  );
  assert(results.every((r) => r.status === 200), results.map((r) => r.text).join("\n"));
  // Mondays in 2027: 52, times 10 enrollments.
  assertEquals(results.reduce((sum, r) => sum + r.body.created, 0), 520);
  assert(results.every((r) => r.body.created + r.body.skipped.existing === 520));
  const page = await api(t.app, "GET", `/v1/lesson-sessions?slotId=${s.id}&limit=1`, {
    token: w.editor.token,
  });
  assertEquals(page.body.pagination.total, 520);
});

Deno.test("sessions list filters by slot, member, enrollment, instructor, status and inclusive dates", async () => {
  const { slot: s, instructor: teacher } = await freshSlot({ dayOfWeek: 5, startTime: "12:00" });
  const m = await member(w);
  const e = await enroll(w, m, s.id);
  await generate({ from: "2027-02-01", to: "2027-02-28", slotId: s.id });
  assertEquals((await sessionsOf(`memberId=${m}`)).length, 4);
  assertEquals((await sessionsOf(`instructorId=${teacher.id}`)).length, 4);
  const ranged = await sessionsOf(`enrollmentId=${e.id}&from=2027-02-05&to=2027-02-19`);
  assertEquals(ranged.map((x) => x.date), ["2027-02-05", "2027-02-12", "2027-02-19"]);
  assertEquals((await sessionsOf(`slotId=${s.id}&status=attended`)).length, 0);
  const desc = await sessionsOf(`slotId=${s.id}&sort=date&order=desc`);
  assertEquals(desc[0]!.date, "2027-02-26");
  const bad = await api(t.app, "GET", "/v1/lesson-sessions?status=done", { token: w.editor.token });
  assertEquals(bad.status, 400);
  const one = await api(t.app, "GET", `/v1/lesson-sessions/${desc[0]!.id}`, {
    token: w.editor.token,
  });
  assertEquals(one.body.enrollmentId, e.id);
  assertEquals(one.body.memberId, m);
  assertEquals(one.body.slotId, s.id);
  assertEquals(one.body.instructorId, teacher.id);
});

async function sessionsForNewEnrollment(overrides: Record<string, unknown> = {}) {
  const made = await freshSlot({ dayOfWeek: 3, startTime: "15:00", ...overrides });
  const e = await enroll(w, await member(w), made.slot.id);
  await generate({ from: "2027-03-01", to: "2027-03-31", slotId: made.slot.id });
  const sessions = await sessionsOf(`enrollmentId=${e.id}`);
  return { ...made, enrollment: e, sessions };
}

async function patchSession(id: string, body: unknown, token = w.editor.token) {
  return await api(t.app, "PATCH", `/v1/lesson-sessions/${id}`, { token, body });
}

Deno.test("session statuses: scheduled → attended|missed|cancelled; terminal states refuse with 409 invalid_transition", async () => {
  const { sessions } = await sessionsForNewEnrollment();
  const [a, b, c] = sessions;
  assertEquals((await patchSession(a!.id, { status: "attended" })).body.status, "attended");
  assertEquals((await patchSession(b!.id, { status: "missed" })).body.status, "missed");
  assertEquals((await patchSession(c!.id, { status: "cancelled" })).body.status, "cancelled");
  for (const [id, status] of [[a!.id, "missed"], [b!.id, "attended"], [c!.id, "scheduled"]]) {
    const res = await patchSession(id!, { status });
    assertEquals(res.status, 409);
    assertEquals(res.body.code, "invalid_transition");
  }
  const makeupStatus = await patchSession(sessions[3]!.id, { status: "makeup" });
  assertEquals(makeupStatus.status, 409);
  assertEquals((await patchSession(a!.id, { status: "attended" })).status, 200);
  assertEquals((await patchSession(crypto.randomUUID(), { status: "attended" })).status, 404);
  assertEquals((await patchSession(a!.id, { date: "2027-01-01" })).status, 400);
});

Deno.test("saving non-empty notes sets notesCompletedAt; empty notes are allowed and leave it unset", async () => {
  const { sessions } = await sessionsForNewEnrollment();
  const empty = await patchSession(sessions[0]!.id, { notes: "" });
  assertEquals(empty.status, 200);
  assertEquals(empty.body.notes, "");
  assertEquals(empty.body.notesCompletedAt, null);
  const written = await patchSession(sessions[0]!.id, { notes: "Worked on scales" });
  assertEquals(written.body.notes, "Worked on scales");
  assertEquals(written.body.notesCompletedAt, NOW.toISOString());
  const blank = await patchSession(sessions[1]!.id, { notes: "   " });
  assertEquals(blank.body.notesCompletedAt, null);
});

Deno.test("a makeup for a missed or cancelled session is a new session in status makeup", async () => {
  const { sessions } = await sessionsForNewEnrollment();
  const [missed, scheduled] = sessions;
  const refused = await api(t.app, "POST", `/v1/lesson-sessions/${scheduled!.id}/makeup`, {
    token: w.editor.token,
    body: { date: "2027-04-02" },
  });
  assertEquals(refused.status, 409);
  assertEquals(refused.body.code, "invalid_transition");
  await patchSession(missed!.id, { status: "missed" });
  const makeup = await post(w, `/v1/lesson-sessions/${missed!.id}/makeup`, {
    date: "2027-04-02",
    startTime: "10:00",
  });
  assertEquals(makeup.status, "makeup");
  assertEquals(makeup.makeupForSessionId, missed!.id);
  assertEquals(makeup.date, "2027-04-02");
  assertEquals([makeup.startTime, makeup.endTime], ["10:00", "10:30"]);
  assertEquals(makeup.enrollmentId, missed!.enrollmentId);
  const second = await post(
    w,
    `/v1/lesson-sessions/${missed!.id}/makeup`,
    { date: "2027-04-03" },
    409,
  );
  assertEquals(second.code, "duplicate");
  // A makeup on the date of a regular session of the same enrollment is allowed.
  await patchSession(scheduled!.id, { status: "cancelled" });
  const sameDay = await post(w, `/v1/lesson-sessions/${scheduled!.id}/makeup`, {
    date: sessions[2]!.date,
  });
  assertEquals(sameDay.startTime, "15:00");
  assertEquals((await patchSession(makeup.id, { status: "attended" })).body.status, "attended");
});

Deno.test("a substitute blocked that date, teaching an overlapping slot or session → 409 substitute_unavailable", async () => {
  const { sessions } = await sessionsForNewEnrollment({ startTime: "15:00" });
  const target = sessions[0]!; // Wednesday 2027-03-03 15:00-15:30
  const blocked = await instructor(w);
  await post(w, `/v1/instructors/${blocked.id}/blocked-dates`, { date: target.date });
  const res1 = await patchSession(target.id, { substituteInstructorId: blocked.id });
  assertEquals(res1.status, 409);
  assertEquals(res1.body.code, "substitute_unavailable");
  // An active slot on Wednesday 15:15 overlaps the session.
  const busy = await instructor(w);
  await slot(w, busy.id, (await lessonType(w)).id, { dayOfWeek: 3, startTime: "15:15" });
  assertEquals(
    (await patchSession(target.id, { substituteInstructorId: busy.id })).body.code,
    "substitute_unavailable",
  );
  // An inactive slot at that time does not count.
  const idle = await instructor(w);
  await slot(w, idle.id, (await lessonType(w)).id, {
    dayOfWeek: 3,
    startTime: "15:00",
    isActive: false,
  });
  const ok = await patchSession(target.id, { substituteInstructorId: idle.id });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.substituteInstructorId, idle.id);
  // Now substituting there, idle cannot also substitute another overlapping session that date.
  const other = await sessionsForNewEnrollment({ startTime: "15:20" });
  const clash = await patchSession(other.sessions[0]!.id, { substituteInstructorId: idle.id });
  assertEquals(clash.status, 409);
  assertEquals(clash.body.code, "substitute_unavailable");
  // A later, non-overlapping time on that date is fine; clearing works.
  const later = await sessionsForNewEnrollment({ startTime: "15:30" });
  assertEquals(
    (await patchSession(later.sessions[0]!.id, { substituteInstructorId: idle.id })).status,
    200,
  );
  assertEquals(
    (await patchSession(target.id, { substituteInstructorId: null })).body.substituteInstructorId,
    null,
  );
  const unknown = await patchSession(target.id, { substituteInstructorId: crypto.randomUUID() });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "invalid_reference");
});

Deno.test("concurrent substitute assignments of one instructor to overlapping sessions: exactly one succeeds", async () => {
  const a = await sessionsForNewEnrollment({ startTime: "18:00" });
  const b = await sessionsForNewEnrollment({ startTime: "18:10" });
  const sub = await instructor(w);
  const results = await Promise.all(
    [a, b].map((x) => patchSession(x.sessions[1]!.id, { substituteInstructorId: sub.id })),
  );
  assertEquals(results.map((r) => r.status).sort(), [200, 409]);
});

Deno.test("lessons.teach users change status and notes only of sessions they teach or substitute", async () => {
  const teacherUser = await createUserWithPermissions(t, ["lessons.teach"]);
  const subUser = await createUserWithPermissions(t, ["lessons.teach"]);
  const type = await lessonType(w);
  const teacher = await instructor(w, { userId: teacherUser.id });
  const sub = await instructor(w, { userId: subUser.id });
  const s = await slot(w, teacher.id, type.id, {
    dayOfWeek: 6,
    startTime: "09:00",
    maxStudents: 5,
  });
  const e = await enroll(w, await member(w), s.id);
  await generate({ from: "2027-05-01", to: "2027-05-31", slotId: s.id });
  const [mine, subbed] = await sessionsOf(`enrollmentId=${e.id}`);
  const own = await patchSession(
    mine!.id,
    { status: "attended", notes: "Great" },
    teacherUser.token,
  );
  assertEquals(own.status, 200);
  assertEquals(own.body.status, "attended");
  const subField = await patchSession(
    mine!.id,
    { substituteInstructorId: sub.id },
    teacherUser.token,
  );
  assertEquals(subField.status, 403);
  assertEquals(subField.body.code, "forbidden");
  const notYet = await patchSession(subbed!.id, { notes: "x" }, subUser.token);
  assertEquals(notYet.status, 403);
  await patchSession(subbed!.id, { substituteInstructorId: sub.id });
  const asSub = await patchSession(subbed!.id, { status: "missed" }, subUser.token);
  assertEquals(asSub.status, 200);
  const stranger = await createUserWithPermissions(t, ["lessons.teach"]);
  assertEquals((await patchSession(subbed!.id, { notes: "x" }, stranger.token)).status, 403);
  const makeup = await api(t.app, "POST", `/v1/lesson-sessions/${subbed!.id}/makeup`, {
    token: teacherUser.token,
    body: { date: "2027-06-01" },
  });
  assertEquals(makeup.status, 403);
});

Deno.test("withdrawing an enrollment removes its sessions still scheduled after today", async () => {
  const { slot: s } = await freshSlot({ dayOfWeek: 2, startTime: "19:00" });
  const e = await enroll(w, await member(w), s.id, { startDate: "2026-11-01" });
  await generate({ from: "2026-11-01", to: "2026-12-31", slotId: s.id });
  const before = await sessionsOf(`enrollmentId=${e.id}`);
  assertEquals(before.length, 9);
  await patchSession(before[0]!.id, { status: "attended" });
  await post(w, `/v1/enrollments/${e.id}/status`, { status: "withdrawn" }, 200);
  const after = await sessionsOf(`enrollmentId=${e.id}`);
  // Past sessions (and today's, 2026-12-01) stay; later scheduled ones are gone.
  assertEquals(after.map((x) => x.date), [
    "2026-11-03",
    "2026-11-10",
    "2026-11-17",
    "2026-11-24",
    "2026-12-01",
  ]);
});
