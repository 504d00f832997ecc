import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
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

lessonsSuite((s) => ({ t, u: w } = s));

async function freshSlot(overrides: Record<string, unknown> = {}) {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  return await slot(w, teacher.id, type.id, overrides);
}

Deno.test("an enrollment starts active, takes its rate from the presets and shows the member", async () => {
  const s = await freshSlot({ ratePresets: { monthly: "80.00" } });
  const m = await member(w, "Robin");
  const e = await enroll(w, m, s.id, { billingUnit: "month" });
  assertEquals(e.status, "active");
  assertEquals(e.rate, "80.00");
  assertEquals(e.billingInterval, "monthly");
  assertEquals(e.billingUnit, "month");
  assertEquals(e.endDate, null);
  assert(e.memberName.startsWith("Robin "));
  // Without a slot preset the lesson type's preset applies; an explicit rate wins.
  const weekly = await enroll(w, await member(w), s.id, { billingInterval: "weekly" });
  assertEquals(weekly.rate, "25.00");
  const got = await api(t.app, "GET", `/v1/schedule-slots/${s.id}`, { token: w.editor.token });
  assertEquals(got.body.enrolledCount, 2);
  const list = await api(t.app, "GET", `/v1/enrollments?slotId=${s.id}&memberId=${m}`, {
    token: w.editor.token,
  });
  assertEquals(list.body.data.map((x: { id: string }) => x.id), [e.id]);
});

Deno.test("enrollment bodies refuse status, unknown fields and bad dates; unknown member or slot → 400 invalid_reference", async () => {
  const s = await freshSlot();
  const m = await member(w);
  for (
    const extra of [
      { status: "paused" },
      { id: crypto.randomUUID() },
      { billingInterval: "yearly" },
      { endDate: "2026-11-01" },
    ]
  ) {
    const res = await api(t.app, "POST", "/v1/enrollments", {
      token: w.editor.token,
      body: {
        memberId: m,
        slotId: s.id,
        startDate: "2026-12-01",
        billingInterval: "monthly",
        ...extra,
      },
    });
    assertEquals(res.status, 400, JSON.stringify(extra));
  }
  const unknownMember = await enroll(w, crypto.randomUUID(), s.id, {}, 400);
  assertEquals(unknownMember.code, "invalid_reference");
  const unknownSlot = await enroll(w, m, crypto.randomUUID(), {}, 400);
  assertEquals(unknownSlot.code, "invalid_reference");
  const e = await enroll(w, m, s.id);
  const patchStatus = await api(t.app, "PATCH", `/v1/enrollments/${e.id}`, {
    token: w.editor.token,
    body: { status: "withdrawn" },
  });
  assertEquals(patchStatus.status, 400);
});

Deno.test("a full slot refuses the next enrollment with 409 slot_full; withdrawn seats are released", async () => {
  const s = await freshSlot({ maxStudents: 2 });
  const first = await enroll(w, await member(w), s.id);
  await enroll(w, await member(w), s.id);
  const full = await enroll(w, await member(w), s.id, {}, 409);
  assertEquals(full.code, "slot_full");
  // Paused still holds a seat.
  await post(w, `/v1/enrollments/${first.id}/status`, { status: "paused" }, 200);
  assertEquals((await enroll(w, await member(w), s.id, {}, 409)).code, "slot_full");
  await post(w, `/v1/enrollments/${first.id}/status`, { status: "withdrawn" }, 200);
  await enroll(w, await member(w), s.id);
});

Deno.test("seats held by enrollments that ended before the new one starts do not count", async () => {
  const s = await freshSlot({ maxStudents: 1 });
  await enroll(w, await member(w), s.id, { startDate: "2026-01-01", endDate: "2026-06-30" });
  await enroll(w, await member(w), s.id, { startDate: "2026-07-01" });
  assertEquals(
    (await enroll(w, await member(w), s.id, { startDate: "2026-08-01" }, 409)).code,
    "slot_full",
  );
});

Deno.test("a member in an overlapping slot on the same weekday and dates → 409 double_booked", async () => {
  const a = await freshSlot({
    dayOfWeek: 3,
    startTime: "17:00",
    durationMinutes: 30,
    maxStudents: 5,
  });
  const b = await freshSlot({
    dayOfWeek: 3,
    startTime: "17:15",
    durationMinutes: 30,
    maxStudents: 5,
  });
  const touching = await freshSlot({ dayOfWeek: 3, startTime: "17:30", maxStudents: 5 });
  const otherDay = await freshSlot({ dayOfWeek: 4, startTime: "17:00", maxStudents: 5 });
  const m = await member(w);
  await enroll(w, m, a.id, { endDate: "2027-03-31" });
  const clash = await enroll(w, m, b.id, {}, 409);
  assertEquals(clash.code, "double_booked");
  // The same slot twice is double booking too.
  assertEquals((await enroll(w, m, a.id, {}, 409)).code, "double_booked");
  await enroll(w, m, touching.id, { endDate: "2027-03-31" });
  await enroll(w, m, otherDay.id);
  // Dates that do not overlap are fine.
  await enroll(w, m, b.id, { startDate: "2027-04-01" });
});

Deno.test("enrollment status moves: active ↔ paused, then withdrawn|completed; anything else 409 invalid_transition", async () => {
  const s = await freshSlot({ maxStudents: 5 });
  const e = await enroll(w, await member(w), s.id);
  const paused = await post(w, `/v1/enrollments/${e.id}/status`, { status: "paused" }, 200);
  assertEquals(paused.status, "paused");
  assertEquals(
    (await post(w, `/v1/enrollments/${e.id}/status`, { status: "paused" }, 409)).code,
    "invalid_transition",
  );
  await post(w, `/v1/enrollments/${e.id}/status`, { status: "active" }, 200);
  await post(w, `/v1/enrollments/${e.id}/status`, { status: "completed" }, 200);
  for (const status of ["active", "paused", "withdrawn"]) {
    const res = await post(w, `/v1/enrollments/${e.id}/status`, { status }, 409);
    assertEquals(res.code, "invalid_transition");
  }
  const bad = await api(t.app, "POST", `/v1/enrollments/${e.id}/status`, {
    token: w.editor.token,
    body: { status: "deleted" },
  });
  assertEquals(bad.status, 400);
  const missing = await api(t.app, "POST", `/v1/enrollments/${crypto.randomUUID()}/status`, {
    token: w.editor.token,
    body: { status: "paused" },
  });
  assertEquals(missing.status, 404);
});

Deno.test("moving an enrollment to another slot re-checks capacity and double booking", async () => {
  const full = await freshSlot({ dayOfWeek: 5, startTime: "10:00", maxStudents: 1 });
  await enroll(w, await member(w), full.id);
  const open = await freshSlot({ dayOfWeek: 5, startTime: "11:00", maxStudents: 3 });
  const m = await member(w);
  const e = await enroll(w, m, open.id);
  const res = await api(t.app, "PATCH", `/v1/enrollments/${e.id}`, {
    token: w.editor.token,
    body: { slotId: full.id },
  });
  assertEquals(res.status, 409);
  assertEquals(res.body.code, "slot_full");
  const ok = await api(t.app, "PATCH", `/v1/enrollments/${e.id}`, {
    token: w.editor.token,
    body: { endDate: "2027-06-30", rate: 70, billingInterval: "quarterly" },
  });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.rate, "70.00");
  assertEquals(ok.body.endDate, "2027-06-30");
});

Deno.test("an inactive slot takes no enrollments; a slot with enrollments cannot be deleted", async () => {
  const s = await freshSlot({ isActive: false });
  const res = await enroll(w, await member(w), s.id, {}, 409);
  assertEquals(res.code, "slot_inactive");
  const used = await freshSlot({ maxStudents: 3 });
  const e = await enroll(w, await member(w), used.id);
  const del = await api(t.app, "DELETE", `/v1/schedule-slots/${used.id}`, {
    token: w.editor.token,
  });
  assertEquals(del.status, 409);
  assertEquals(del.body.code, "in_use");
  const delEnrollment = await api(t.app, "DELETE", `/v1/enrollments/${e.id}`, {
    token: w.editor.token,
  });
  assertEquals(delEnrollment.status, 204);
  assertEquals(
    (await api(t.app, "GET", `/v1/enrollments/${e.id}`, { token: w.editor.token })).status,
    404,
  );
});

Deno.test("concurrent enrollments into a slot with 3 seats: exactly 3 succeed, the rest 409 slot_full", async () => {
  const s = await freshSlot({ maxStudents: 3 });
  const members = await Promise.all(Array.from({ length: 8 }, () => member(w)));
  const results = await Promise.all(members.map((m) =>
    api(t.app, "POST", "/v1/enrollments", {
      token: w.editor.token,
      body: { memberId: m, slotId: s.id, startDate: "2026-12-01", billingInterval: "monthly" },
    })
  ));
  assertEquals(results.filter((r) => r.status === 201).length, 3);
  assert(
    results.filter((r) => r.status !== 201).every((r) =>
      r.status === 409 && r.body.code === "slot_full"
    ),
  );
  const got = await api(t.app, "GET", `/v1/schedule-slots/${s.id}`, { token: w.editor.token });
  assertEquals(got.body.enrolledCount, 3);
});

Deno.test("concurrent enrollments of one member into overlapping slots: exactly one succeeds, the rest 409 double_booked", async () => {
  const slots = await Promise.all(
    ["09:00", "09:10", "09:20", "09:05"].map((startTime) =>
      freshSlot({ dayOfWeek: 0, startTime, durationMinutes: 30, maxStudents: 5 })
    ),
  );
  const m = await member(w);
  const results = await Promise.all(slots.map((s) =>
    api(t.app, "POST", "/v1/enrollments", {
      token: w.editor.token,
      body: { memberId: m, slotId: s.id, startDate: "2026-12-01", billingInterval: "weekly" },
    })
  ));
  assertEquals(results.filter((r) => r.status === 201).length, 1);
  assert(
    results.filter((r) => r.status !== 201).every((r) =>
      r.status === 409 && r.body.code === "double_booked"
    ),
  );
});

Deno.test("GET /enrollments sorts by memberName (the name-like field) as well as createdAt", async () => {
  const s = await freshSlot({ maxStudents: 3 });
  const zed = await enroll(w, await member(w, "Zed"), s.id);
  const abe = await enroll(w, await member(w, "Abe"), s.id);
  const mia = await enroll(w, await member(w, "Mia"), s.id);
  const list = async (query: string) => {
    const res = await api(t.app, "GET", `/v1/enrollments?slotId=${s.id}&${query}`, {
      token: w.editor.token,
    });
    assertEquals(res.status, 200, res.text);
    return res.body.data.map((x: { id: string }) => x.id);
  };
  assertEquals(await list("sort=memberName"), [abe.id, mia.id, zed.id]);
  assertEquals(await list("sort=memberName&order=desc"), [zed.id, mia.id, abe.id]);
  assertEquals(await list("sort=createdAt"), [zed.id, abe.id, mia.id]);
});

Deno.test("an enrollment's rate is never negative: create and update → 400 naming rate; zero and positive pass", async () => {
  const s = await freshSlot({ maxStudents: 4 });
  const m = await member(w);
  for (const rate of ["-30.00", -30, "-0.01", -0.01]) {
    const created = await api(t.app, "POST", "/v1/enrollments", {
      token: w.editor.token,
      body: {
        memberId: m,
        slotId: s.id,
        startDate: "2026-12-01",
        billingInterval: "monthly",
        rate,
      },
    });
    assertEquals(created.status, 400, `${rate}: ${created.text}`);
    assertEquals(created.headers.get("content-type"), "application/problem+json");
    assertEquals(created.body.code, "validation_failed");
    assertEquals(created.body.errors.map((e: { path: string }) => e.path), ["rate"]);
  }
  const free = await enroll(w, m, s.id, { rate: 0 });
  assertEquals(free.rate, "0.00");
  for (const rate of ["-30.00", -30, "-0.01"]) {
    const patched = await api(t.app, "PATCH", `/v1/enrollments/${free.id}`, {
      token: w.editor.token,
      body: { rate },
    });
    assertEquals(patched.status, 400, `${rate}: ${patched.text}`);
    assertEquals(patched.headers.get("content-type"), "application/problem+json");
    assertEquals(patched.body.errors.map((e: { path: string }) => e.path), ["rate"]);
  }
  const priced = await api(t.app, "PATCH", `/v1/enrollments/${free.id}`, {
    token: w.editor.token,
    body: { rate: "45.50" },
  });
  assertEquals(priced.status, 200);
  assertEquals(priced.body.rate, "45.50");
  const zero = await api(t.app, "PATCH", `/v1/enrollments/${free.id}`, {
    token: w.editor.token,
    body: { rate: "0.00" },
  });
  assertEquals(zero.body.rate, "0.00");
});
