import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import {
  instructor,
  lessonsSuite,
  type LessonsWorld,
  lessonType,
  post,
  slot,
} from "./_fixtures.ts";

let t: TestApp;
let w: LessonsWorld;

lessonsSuite((s) => ({ t, u: w } = s));

Deno.test("lesson types: create, read, list, update and delete with rate presets as money strings", async () => {
  const type = await lessonType(w, { name: "Piano basics" });
  assertEquals(type.ratePresets, { weekly: "25.00", monthly: "90.00", quarterly: "250.00" });
  assertEquals(type.durationMinutes, 30);
  const got = await api(t.app, "GET", `/v1/lesson-types/${type.id}`, { token: w.editor.token });
  assertEquals(got.body.name, "Piano basics");
  const patched = await api(t.app, "PATCH", `/v1/lesson-types/${type.id}`, {
    token: w.editor.token,
    body: { ratePresets: { weekly: null }, durationMinutes: 45 },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.ratePresets, { weekly: null, monthly: "90.00", quarterly: "250.00" });
  assertEquals(patched.body.durationMinutes, 45);
  const list = await api(t.app, "GET", "/v1/lesson-types?q=PIANO", { token: w.editor.token });
  assertEquals(list.body.data.map((x: { id: string }) => x.id), [type.id]);
  const del = await api(t.app, "DELETE", `/v1/lesson-types/${type.id}`, { token: w.editor.token });
  assertEquals(del.status, 204);
  const gone = await api(t.app, "GET", `/v1/lesson-types/${type.id}`, { token: w.editor.token });
  assertEquals(gone.status, 404);
});

Deno.test("lesson types refuse unknown fields, bad money and an unknown sort field with 400", async () => {
  for (
    const body of [
      { name: "X", durationMinutes: 30, id: "nope" },
      { name: "X", durationMinutes: 30, ratePresets: { weekly: 1.234 } },
      { name: "X", durationMinutes: 0 },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/lesson-types", { token: w.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const res = await api(t.app, "GET", "/v1/lesson-types?sort=price", { token: w.editor.token });
  assertEquals(res.status, 400);
});

Deno.test("a lesson type used by a slot cannot be deleted (409 in_use)", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  await slot(w, teacher.id, type.id);
  const res = await api(t.app, "DELETE", `/v1/lesson-types/${type.id}`, { token: w.editor.token });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "in_use");
});

Deno.test("reads need lessons.view and writes lessons.edit (403 forbidden, before any lookup)", async () => {
  const viewer = await createUserWithPermissions(t, ["lessons.view"]);
  const none = await createUserWithPermissions(t, ["accounts.view"]);
  const list = await api(t.app, "GET", "/v1/instructors", { token: viewer.token });
  assertEquals(list.status, 200);
  const denied = await api(t.app, "GET", "/v1/schedule-slots", { token: none.token });
  assertEquals(denied.status, 403);
  assertEquals(denied.body.code, "forbidden");
  const write = await api(t.app, "POST", "/v1/store-closures", {
    token: viewer.token,
    body: { startDate: "2026-12-24", endDate: "2026-12-26", reason: "Holidays" },
  });
  assertEquals(write.status, 403);
  const unknown = await api(t.app, "DELETE", `/v1/grading-scales/${crypto.randomUUID()}`, {
    token: viewer.token,
  });
  assertEquals(unknown.status, 403);
  const teach = await createUserWithPermissions(t, ["lessons.teach"]);
  const teachWrite = await api(t.app, "POST", "/v1/lesson-types", {
    token: teach.token,
    body: { name: "X", durationMinutes: 30 },
  });
  assertEquals(teachWrite.status, 403);
});

Deno.test("instructors: CRUD, optional user link (unknown user 400, a user linked twice 409)", async () => {
  const user = await createUserWithPermissions(t, ["lessons.teach"]);
  const linked = await instructor(w, { userId: user.id });
  assertEquals(linked.userId, user.id);
  assertEquals(linked.isActive, true);
  const twice = await api(t.app, "POST", "/v1/instructors", {
    token: w.editor.token,
    body: { firstName: "B", lastName: "C", userId: user.id },
  });
  assertEquals(twice.status, 409);
  assertEquals(twice.body.code, "duplicate");
  const unknown = await api(t.app, "POST", "/v1/instructors", {
    token: w.editor.token,
    body: { firstName: "B", lastName: "C", userId: crypto.randomUUID() },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.code, "invalid_reference");
  const patched = await api(t.app, "PATCH", `/v1/instructors/${linked.id}`, {
    token: w.editor.token,
    body: { isActive: false, email: null },
  });
  assertEquals(patched.body.isActive, false);
  assertEquals(patched.body.email, null);
  const search = await api(t.app, "GET", `/v1/instructors?q=${linked.lastName.toUpperCase()}`, {
    token: w.editor.token,
  });
  assertEquals(search.body.data.length, 1);
  const bad = await api(t.app, "GET", "/v1/instructors/not-a-uuid", { token: w.editor.token });
  assertEquals(bad.status, 404);
  const lone = await instructor(w);
  const del = await api(t.app, "DELETE", `/v1/instructors/${lone.id}`, { token: w.editor.token });
  assertEquals(del.status, 204);
});

Deno.test("blocked dates: add, list, refuse a duplicate day, delete; unknown instructor 404", async () => {
  const teacher = await instructor(w);
  const blocked = await post(w, `/v1/instructors/${teacher.id}/blocked-dates`, {
    date: "2026-12-08",
    reason: "Conference",
  });
  assertEquals(blocked.date, "2026-12-08");
  assertEquals(blocked.instructorId, teacher.id);
  const dup = await api(t.app, "POST", `/v1/instructors/${teacher.id}/blocked-dates`, {
    token: w.editor.token,
    body: { date: "2026-12-08" },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  const list = await api(t.app, "GET", `/v1/instructors/${teacher.id}/blocked-dates`, {
    token: w.editor.token,
  });
  assertEquals(list.body.pagination.total, 1);
  const missing = await api(t.app, "GET", `/v1/instructors/${crypto.randomUUID()}/blocked-dates`, {
    token: w.editor.token,
  });
  assertEquals(missing.status, 404);
  const del = await api(
    t.app,
    "DELETE",
    `/v1/instructors/${teacher.id}/blocked-dates/${blocked.id}`,
    { token: w.editor.token },
  );
  assertEquals(del.status, 204);
  const again = await api(
    t.app,
    "DELETE",
    `/v1/instructors/${teacher.id}/blocked-dates/${blocked.id}`,
    { token: w.editor.token },
  );
  assertEquals(again.status, 404);
});

Deno.test("store closures: inclusive ranges, end before start refused, list by overlap, delete", async () => {
  const closure = await post(w, "/v1/store-closures", {
    startDate: "2026-12-24",
    endDate: "2026-12-26",
    reason: "Holidays",
  });
  assertEquals(closure.endDate, "2026-12-26");
  const bad = await api(t.app, "POST", "/v1/store-closures", {
    token: w.editor.token,
    body: { startDate: "2026-12-26", endDate: "2026-12-24", reason: "x" },
  });
  assertEquals(bad.status, 400);
  const overlapping = await api(t.app, "GET", "/v1/store-closures?from=2026-12-26&to=2027-01-01", {
    token: w.editor.token,
  });
  assert(overlapping.body.data.some((c: { id: string }) => c.id === closure.id));
  const after = await api(t.app, "GET", "/v1/store-closures?from=2026-12-27", {
    token: w.editor.token,
  });
  assert(!after.body.data.some((c: { id: string }) => c.id === closure.id));
  const del = await api(t.app, "DELETE", `/v1/store-closures/${closure.id}`, {
    token: w.editor.token,
  });
  assertEquals(del.status, 204);
});

Deno.test("schedule slots: create with times, defaults and joined names; invalid references 400", async () => {
  const type = await lessonType(w, { durationMinutes: 45 });
  const teacher = await instructor(w);
  const created = await post(w, "/v1/schedule-slots", {
    instructorId: teacher.id,
    lessonTypeId: type.id,
    dayOfWeek: 1,
    startTime: "09:30",
    room: "Studio B",
  });
  assertEquals(created.startTime, "09:30");
  assertEquals(created.endTime, "10:15");
  assertEquals(created.durationMinutes, 45);
  assertEquals(created.maxStudents, 1);
  assertEquals(created.enrolledCount, 0);
  assertEquals(created.isActive, true);
  assertEquals(created.lessonTypeName, type.name);
  assertEquals(created.instructorName, `Ada ${teacher.lastName}`);
  for (
    const body of [
      {
        instructorId: crypto.randomUUID(),
        lessonTypeId: type.id,
        dayOfWeek: 1,
        startTime: "12:00",
      },
      {
        instructorId: teacher.id,
        lessonTypeId: crypto.randomUUID(),
        dayOfWeek: 1,
        startTime: "12:00",
      },
      {
        instructorId: teacher.id,
        lessonTypeId: type.id,
        dayOfWeek: 1,
        startTime: "12:00",
        locationId: crypto.randomUUID(),
      },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/schedule-slots", { token: w.editor.token, body });
    assertEquals(res.status, 400);
    assertEquals(res.body.code, "invalid_reference");
  }
  for (
    const body of [
      { instructorId: teacher.id, lessonTypeId: type.id, dayOfWeek: 7, startTime: "12:00" },
      { instructorId: teacher.id, lessonTypeId: type.id, dayOfWeek: 1, startTime: "25:00" },
      { instructorId: teacher.id, lessonTypeId: type.id, dayOfWeek: 1, startTime: "23:50" },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/schedule-slots", { token: w.editor.token, body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(res.body.code, "validation_failed");
  }
  const list = await api(
    t.app,
    "GET",
    `/v1/schedule-slots?instructorId=${teacher.id}&dayOfWeek=1`,
    {
      token: w.editor.token,
    },
  );
  assertEquals(list.body.data.map((s: { id: string }) => s.id), [created.id]);
});

Deno.test("schedule slots: an overlapping active slot of the same instructor and weekday → 409 slot_overlap", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const first = await slot(w, teacher.id, type.id, { startTime: "16:00", durationMinutes: 30 });
  const overlap = await api(t.app, "POST", "/v1/schedule-slots", {
    token: w.editor.token,
    body: {
      instructorId: teacher.id,
      lessonTypeId: type.id,
      dayOfWeek: 2,
      startTime: "16:15",
      durationMinutes: 30,
    },
  });
  assertEquals(overlap.status, 409);
  assertEquals(overlap.body.code, "slot_overlap");
  // Touching end-to-start, another weekday, another instructor, an inactive slot: fine.
  await slot(w, teacher.id, type.id, { startTime: "16:30" });
  await slot(w, teacher.id, type.id, { startTime: "15:30" });
  await slot(w, teacher.id, type.id, { startTime: "16:00", dayOfWeek: 3 });
  const other = await instructor(w);
  await slot(w, other.id, type.id, { startTime: "16:00" });
  const inactive = await slot(w, teacher.id, type.id, { startTime: "16:10", isActive: false });
  // Activating the overlapping inactive slot, or moving a slot onto another → slot_overlap.
  const activate = await api(t.app, "PATCH", `/v1/schedule-slots/${inactive.id}`, {
    token: w.editor.token,
    body: { isActive: true },
  });
  assertEquals(activate.status, 409);
  assertEquals(activate.body.code, "slot_overlap");
  const move = await api(t.app, "PATCH", `/v1/schedule-slots/${first.id}`, {
    token: w.editor.token,
    body: { dayOfWeek: 3 },
  });
  assertEquals(move.status, 409);
  // Updating a slot without moving it does not collide with itself.
  const same = await api(t.app, "PATCH", `/v1/schedule-slots/${first.id}`, {
    token: w.editor.token,
    body: { room: "A", startTime: "16:00" },
  });
  assertEquals(same.status, 200);
  assertEquals(same.body.room, "A");
});

Deno.test("schedule slots: concurrent overlapping creates → exactly one succeeds, the rest 409 slot_overlap", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      api(t.app, "POST", "/v1/schedule-slots", {
        token: w.editor.token,
        body: {
          instructorId: teacher.id,
          lessonTypeId: type.id,
          dayOfWeek: 4,
          startTime: `10:${String(i * 5).padStart(2, "0")}`,
          durationMinutes: 30,
        },
      })),
  );
  const statuses = results.map((r) => r.status).sort();
  assertEquals(statuses, [201, 409, 409, 409, 409, 409]);
  assert(results.filter((r) => r.status === 409).every((r) => r.body.code === "slot_overlap"));
});

Deno.test("schedule slots: concurrent updates moving two slots onto one time → one succeeds", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const a = await slot(w, teacher.id, type.id, { dayOfWeek: 5, startTime: "08:00" });
  const b = await slot(w, teacher.id, type.id, { dayOfWeek: 5, startTime: "09:00" });
  const results = await Promise.all(
    [a, b].map((s, i) =>
      api(t.app, "PATCH", `/v1/schedule-slots/${s.id}`, {
        token: w.editor.token,
        body: { startTime: i === 0 ? "12:00" : "12:10" },
      })
    ),
  );
  assertEquals(results.map((r) => r.status).sort(), [200, 409]);
});

Deno.test("a schedule slot without enrollments can be deleted", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const s = await slot(w, teacher.id, type.id, { dayOfWeek: 6 });
  const del = await api(t.app, "DELETE", `/v1/schedule-slots/${s.id}`, { token: w.editor.token });
  assertEquals(del.status, 204);
  const res = await api(t.app, "GET", `/v1/schedule-slots/${s.id}`, { token: w.editor.token });
  assertEquals(res.status, 404);
});

Deno.test("lessons routes answer 403 module_disabled when the lessons module is off", async () => {
  const admin = await createUserWithPermissions(t, ["settings.admin", "lessons.view"]);
  const off = await api(t.app, "PATCH", "/v1/modules/lessons", {
    token: admin.token,
    body: { enabled: false },
  });
  assertEquals(off.status, 200);
  try {
    for (const path of ["/v1/lesson-types", "/v1/schedule-slots", "/v1/grading-scales/lookup"]) {
      const res = await api(t.app, "GET", path, { token: admin.token });
      assertEquals(res.status, 403);
      assertEquals(res.body.code, "module_disabled");
    }
  } finally {
    await api(t.app, "PATCH", "/v1/modules/lessons", {
      token: admin.token,
      body: { enabled: true },
    });
  }
});

Deno.test("the OpenAPI document describes the lessons routes", async () => {
  const res = await api(t.app, "GET", "/v1/openapi.json");
  assertEquals(res.status, 200);
  for (
    const path of [
      "/v1/lesson-types",
      "/v1/instructors/{id}/blocked-dates/{blockedDateId}",
      "/v1/schedule-slots/{id}",
      "/v1/enrollments/{id}/status",
      "/v1/lesson-sessions/generate",
      "/v1/lesson-plans/{id}/items/{itemId}",
      "/v1/grading-scales/lookup",
      "/v1/store-closures/{id}",
    ]
  ) {
    assert(res.body.paths[path], `${path} is documented`);
  }
});

/** `body` sent to `path` is refused: 400 problem+json `validation_failed` naming `field`. */
async function assertRefusedNegative(method: string, path: string, body: unknown, field: string) {
  const res = await api(t.app, method, path, { token: w.editor.token, body });
  assertEquals(res.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`);
  assertEquals(res.headers.get("content-type"), "application/problem+json");
  assertEquals(res.body.code, "validation_failed");
  assertEquals(res.body.errors.map((e: { path: string }) => e.path), [field]);
}

const NEGATIVE_RATES = ["-30.00", -30, "-0.01", -0.01];

Deno.test("lesson type rate presets are never negative: create and update → 400 naming the rate; zero and positive pass", async () => {
  for (const key of ["weekly", "monthly", "quarterly"]) {
    for (const rate of NEGATIVE_RATES) {
      await assertRefusedNegative("POST", "/v1/lesson-types", {
        name: "Negative",
        durationMinutes: 30,
        ratePresets: { [key]: rate },
      }, `ratePresets.${key}`);
    }
  }
  const type = await lessonType(w, { ratePresets: { weekly: 0, monthly: "0.00", quarterly: 1 } });
  assertEquals(type.ratePresets, { weekly: "0.00", monthly: "0.00", quarterly: "1.00" });
  for (const rate of NEGATIVE_RATES) {
    await assertRefusedNegative("PATCH", `/v1/lesson-types/${type.id}`, {
      ratePresets: { monthly: rate },
    }, "ratePresets.monthly");
  }
  const patched = await api(t.app, "PATCH", `/v1/lesson-types/${type.id}`, {
    token: w.editor.token,
    body: { ratePresets: { weekly: "12.50", monthly: 0 } },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.ratePresets, { weekly: "12.50", monthly: "0.00", quarterly: "1.00" });
});

Deno.test("schedule slot rate presets are never negative: create and update → 400 naming the rate; zero and positive pass", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const base = { instructorId: teacher.id, lessonTypeId: type.id, dayOfWeek: 3 };
  for (const rate of NEGATIVE_RATES) {
    await assertRefusedNegative("POST", "/v1/schedule-slots", {
      ...base,
      startTime: "10:00",
      ratePresets: { weekly: rate },
    }, "ratePresets.weekly");
  }
  const s = await slot(w, teacher.id, type.id, {
    dayOfWeek: 3,
    startTime: "11:00",
    ratePresets: { weekly: 0, monthly: "80.00" },
  });
  assertEquals(s.ratePresets, { weekly: "0.00", monthly: "80.00", quarterly: null });
  for (const rate of NEGATIVE_RATES) {
    await assertRefusedNegative("PATCH", `/v1/schedule-slots/${s.id}`, {
      ratePresets: { quarterly: rate },
    }, "ratePresets.quarterly");
  }
  const patched = await api(t.app, "PATCH", `/v1/schedule-slots/${s.id}`, {
    token: w.editor.token,
    body: { ratePresets: { quarterly: "0.00", monthly: 75 } },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.ratePresets, { weekly: "0.00", monthly: "75.00", quarterly: "0.00" });
});
