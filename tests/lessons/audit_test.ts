import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { instructor, lessonsSuite, type LessonsWorld, lessonType, post } from "./_fixtures.ts";

let t: TestApp;
let w: LessonsWorld;
let admin: TestUser;

lessonsSuite(async (s) => {
  ({ t, u: w } = s);
  admin = await createUserWithPermissions(t, ["settings.admin"]);
});

async function auditTrail(entityType: string, entityId: string) {
  const res = await api(
    t.app,
    "GET",
    `/v1/audit-log?entityType=${entityType}&entityId=${entityId}`,
    { token: admin.token },
  );
  assertEquals(res.status, 200, res.text);
  return res.body.data as Array<
    { action: string; actorId: string | null; details: Record<string, unknown> }
  >;
}

Deno.test("creating, changing and deleting a lesson type is audited as lesson_type.*", async () => {
  const type = await lessonType(w, { name: "Audited cello" });
  await api(t.app, "PATCH", `/v1/lesson-types/${type.id}`, {
    token: w.editor.token,
    body: { durationMinutes: 45 },
  });
  await api(t.app, "DELETE", `/v1/lesson-types/${type.id}`, { token: w.editor.token });
  const trail = await auditTrail("lesson_type", type.id);
  assertEquals(trail.map((e) => e.action), [
    "lesson_type.deleted",
    "lesson_type.updated",
    "lesson_type.created",
  ]);
  assertEquals(trail.map((e) => e.actorId), [w.editor.id, w.editor.id, w.editor.id]);
  assertEquals(trail[1]!.details, { name: "Audited cello", changed: ["durationMinutes"] });
});

Deno.test("a refused change of a lesson type leaves no audit entry", async () => {
  const missing = "00000000-0000-7000-8000-000000000000";
  const res = await api(t.app, "PATCH", `/v1/lesson-types/${missing}`, {
    token: w.editor.token,
    body: { durationMinutes: 45 },
  });
  assertEquals(res.status, 404);
  assertEquals(await auditTrail("lesson_type", missing), []);
});

Deno.test("instructors and their blocked dates are audited as instructor.* and blocked_date.*", async () => {
  const teacher = await instructor(w);
  await api(t.app, "PATCH", `/v1/instructors/${teacher.id}`, {
    token: w.editor.token,
    body: { isActive: false },
  });
  const blocked = await post(w, `/v1/instructors/${teacher.id}/blocked-dates`, {
    date: "2026-12-24",
    reason: "Holiday",
  });
  await api(t.app, "DELETE", `/v1/instructors/${teacher.id}/blocked-dates/${blocked.id}`, {
    token: w.editor.token,
  });
  await api(t.app, "DELETE", `/v1/instructors/${teacher.id}`, { token: w.editor.token });
  assertEquals((await auditTrail("instructor", teacher.id)).map((e) => e.action), [
    "instructor.deleted",
    "instructor.updated",
    "instructor.created",
  ]);
  const dates = await auditTrail("blocked_date", blocked.id);
  assertEquals(dates.map((e) => e.action), ["blocked_date.deleted", "blocked_date.created"]);
  assertEquals(dates[1]!.details, { instructorId: teacher.id, date: "2026-12-24" });
});

Deno.test("adding and deleting a store closure is audited as store_closure.*", async () => {
  const closure = await post(w, "/v1/store-closures", {
    startDate: "2026-12-24",
    endDate: "2026-12-26",
    reason: "Holidays",
  });
  await api(t.app, "DELETE", `/v1/store-closures/${closure.id}`, { token: w.editor.token });
  const trail = await auditTrail("store_closure", closure.id);
  assertEquals(trail.map((e) => e.action), ["store_closure.deleted", "store_closure.created"]);
  assertEquals(trail[1]!.details, {
    startDate: "2026-12-24",
    endDate: "2026-12-26",
    reason: "Holidays",
  });
});
