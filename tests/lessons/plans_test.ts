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
const NOW = new Date("2026-12-02T03:00:00Z"); // 2026-12-01 in America/New_York

lessonsSuite((s) => ({ t, u: w } = s), { clock: { now: () => NOW } });

async function newEnrollment(instructorOverrides: Record<string, unknown> = {}) {
  const type = await lessonType(w);
  const teacher = await instructor(w, instructorOverrides);
  const s = await slot(w, teacher.id, type.id, { maxStudents: 5 });
  return await enroll(w, await member(w), s.id);
}

const planBody = {
  title: "Level 1",
  sections: [
    {
      title: "Technique",
      items: [{ title: "C major scale", description: "Two octaves" }, { title: "Arpeggios" }],
    },
    { title: "Repertoire", sortOrder: 5, items: [{ title: "Minuet in G", sortOrder: 3 }] },
    { title: "Theory", items: [] },
  ],
};

async function patchItem(planId: string, itemId: string, body: unknown, token = w.editor.token) {
  return await api(t.app, "PATCH", `/v1/lesson-plans/${planId}/items/${itemId}`, { token, body });
}

Deno.test("a lesson plan is created with nested sections and items in one request", async () => {
  const e = await newEnrollment();
  const plan = await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody);
  assertEquals(plan.status, "active");
  assertEquals(plan.enrollmentId, e.id);
  assertEquals(plan.progressPercent, 0);
  assertEquals(plan.sections.map((s: { title: string }) => s.title), [
    "Technique",
    "Theory",
    "Repertoire",
  ]);
  const technique = plan.sections[0];
  assertEquals(technique.items.map((i: { title: string }) => i.title), [
    "C major scale",
    "Arpeggios",
  ]);
  assertEquals(technique.items[0].status, "not_started");
  assertEquals(technique.items[0].description, "Two octaves");
  assertEquals(technique.items[0].startedDate, null);
  const got = await api(t.app, "GET", `/v1/lesson-plans/${plan.id}`, { token: w.editor.token });
  assertEquals(got.body, plan);
  const list = await api(t.app, "GET", `/v1/lesson-plans?enrollmentId=${e.id}`, {
    token: w.editor.token,
  });
  assertEquals(list.body.data.map((p: { id: string }) => p.id), [plan.id]);
  assertEquals(list.body.data[0].sections.length, 3);
});

Deno.test("lesson plan bodies are validated as a whole; an unknown enrollment is 404", async () => {
  const e = await newEnrollment();
  const bad = await api(t.app, "POST", `/v1/enrollments/${e.id}/lesson-plans`, {
    token: w.editor.token,
    body: { title: "X", sections: [{ title: "S", items: [{ title: "" }] }] },
  });
  assertEquals(bad.status, 400);
  const extra = await api(t.app, "POST", `/v1/enrollments/${e.id}/lesson-plans`, {
    token: w.editor.token,
    body: { title: "X", sections: [{ title: "S", items: [{ title: "i", status: "mastered" }] }] },
  });
  assertEquals(extra.status, 400);
  const missing = await api(t.app, "POST", `/v1/enrollments/${crypto.randomUUID()}/lesson-plans`, {
    token: w.editor.token,
    body: planBody,
  });
  assertEquals(missing.status, 404);
  const none = await api(t.app, "GET", `/v1/lesson-plans?enrollmentId=${e.id}`, {
    token: w.editor.token,
  });
  assertEquals(none.body.pagination.total, 0);
});

Deno.test("a second active plan for an enrollment → 409 plan_already_active; inactive plans are fine", async () => {
  const e = await newEnrollment();
  const first = await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody);
  assertEquals(
    (await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody, 409)).code,
    "plan_already_active",
  );
  const archived = await post(w, `/v1/enrollments/${e.id}/lesson-plans`, {
    ...planBody,
    status: "archived",
  });
  const reactivate = await api(t.app, "PATCH", `/v1/lesson-plans/${archived.id}`, {
    token: w.editor.token,
    body: { status: "active" },
  });
  assertEquals(reactivate.status, 409);
  assertEquals(reactivate.body.code, "plan_already_active");
  const done = await api(t.app, "PATCH", `/v1/lesson-plans/${first.id}`, {
    token: w.editor.token,
    body: { status: "completed", title: "Level 1 (done)" },
  });
  assertEquals(done.body.status, "completed");
  assertEquals(done.body.title, "Level 1 (done)");
  await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody);
  const del = await api(t.app, "DELETE", `/v1/lesson-plans/${archived.id}`, {
    token: w.editor.token,
  });
  assertEquals(del.status, 204);
  assertEquals(
    (await api(t.app, "GET", `/v1/lesson-plans/${archived.id}`, { token: w.editor.token })).status,
    404,
  );
});

Deno.test("concurrent active plans for one enrollment: exactly one is created", async () => {
  const e = await newEnrollment();
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      api(t.app, "POST", `/v1/enrollments/${e.id}/lesson-plans`, {
        token: w.editor.token,
        body: planBody,
      })),
  );
  assertEquals(results.filter((r) => r.status === 201).length, 1);
  assert(
    results.filter((r) => r.status !== 201).every((r) =>
      r.status === 409 && r.body.code === "plan_already_active"
    ),
  );
});

Deno.test("item progress sets startedDate and masteredDate and drives progressPercent", async () => {
  const e = await newEnrollment();
  const plan = await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody);
  const [scale, arpeggios] = plan.sections[0].items;
  const minuet = plan.sections[2].items[0];
  const started = await patchItem(plan.id, scale.id, { status: "in_progress" });
  assertEquals(started.status, 200);
  assertEquals(started.body.startedDate, "2026-12-01");
  assertEquals(started.body.masteredDate, null);
  assertEquals(started.body.planProgressPercent, 0);
  const mastered = await patchItem(plan.id, arpeggios.id, { status: "mastered", notes: "Clean" });
  assertEquals(mastered.body.startedDate, "2026-12-01");
  assertEquals(mastered.body.masteredDate, "2026-12-01");
  assertEquals(mastered.body.notes, "Clean");
  assertEquals(mastered.body.planProgressPercent, 33);
  const skipped = await patchItem(plan.id, minuet.id, { status: "skipped" });
  assertEquals(skipped.body.planProgressPercent, 50);
  const got = await api(t.app, "GET", `/v1/lesson-plans/${plan.id}`, { token: w.editor.token });
  assertEquals(got.body.progressPercent, 50);
  assertEquals((await patchItem(plan.id, scale.id, { status: "done" })).status, 400);
  const otherPlan = await post(
    w,
    `/v1/enrollments/${(await newEnrollment()).id}/lesson-plans`,
    planBody,
  );
  assertEquals((await patchItem(otherPlan.id, scale.id, { status: "mastered" })).status, 404);
  const badGrade = await patchItem(plan.id, scale.id, { gradeLevelId: crypto.randomUUID() });
  assertEquals(badGrade.status, 400);
  assertEquals(badGrade.body.code, "invalid_reference");
});

Deno.test("lessons.teach users update item progress only on plans of slots they teach", async () => {
  const teacherUser = await createUserWithPermissions(t, ["lessons.teach"]);
  const mine = await newEnrollment({ userId: teacherUser.id });
  const theirs = await newEnrollment();
  const myPlan = await post(w, `/v1/enrollments/${mine.id}/lesson-plans`, planBody);
  const theirPlan = await post(w, `/v1/enrollments/${theirs.id}/lesson-plans`, planBody);
  const ok = await patchItem(
    myPlan.id,
    myPlan.sections[0].items[0].id,
    { status: "mastered" },
    teacherUser.token,
  );
  assertEquals(ok.status, 200);
  const denied = await patchItem(theirPlan.id, theirPlan.sections[0].items[0].id, {
    status: "mastered",
  }, teacherUser.token);
  assertEquals(denied.status, 403);
  assertEquals(denied.body.code, "forbidden");
  const planEdit = await api(t.app, "PATCH", `/v1/lesson-plans/${myPlan.id}`, {
    token: teacherUser.token,
    body: { title: "Mine" },
  });
  assertEquals(planEdit.status, 403);
});

const levels = [
  { value: "a", label: "Excellent", numericScore: 4, color: "#00aa00", sortOrder: 1 },
  { value: "b", label: "Good", numericScore: 3, color: "#88cc00", sortOrder: 2 },
  { value: "c", label: "Needs work", numericScore: 1.5, color: "#cc0000", sortOrder: 3 },
];

Deno.test("grading scales: nested levels, the first is default, a new default unsets the previous, lookup lists them", async () => {
  const first = await post(w, "/v1/grading-scales", { name: "Letters", levels });
  assertEquals(first.isDefault, true);
  assertEquals(first.levels.map((l: { value: string }) => l.value), ["a", "b", "c"]);
  assertEquals(first.levels[2].numericScore, 1.5);
  const second = await post(w, "/v1/grading-scales", { name: "Stars", levels: levels.slice(0, 2) });
  assertEquals(second.isDefault, false);
  const third = await post(w, "/v1/grading-scales", { name: "Numbers", isDefault: true, levels });
  assertEquals(third.isDefault, true);
  const lookup = await api(t.app, "GET", "/v1/grading-scales/lookup", { token: w.editor.token });
  assertEquals(lookup.status, 200);
  assertEquals(
    lookup.body.data.filter((s: { isDefault: boolean }) => s.isDefault).map((s: { id: string }) =>
      s.id
    ),
    [third.id],
  );
  assertEquals(lookup.body.data[0].id, third.id);
  assertEquals(Object.keys(lookup.body.data[0]).sort(), ["id", "isDefault", "levels", "name"]);
  const made = await api(t.app, "PATCH", `/v1/grading-scales/${first.id}`, {
    token: w.editor.token,
    body: { isDefault: true },
  });
  assertEquals(made.body.isDefault, true);
  assertEquals(
    (await api(t.app, "GET", `/v1/grading-scales/${third.id}`, { token: w.editor.token })).body
      .isDefault,
    false,
  );
  const unset = await api(t.app, "PATCH", `/v1/grading-scales/${first.id}`, {
    token: w.editor.token,
    body: { isDefault: false },
  });
  assertEquals(unset.status, 409);
  const list = await api(t.app, "GET", "/v1/grading-scales?q=star", { token: w.editor.token });
  assertEquals(list.body.data.map((s: { id: string }) => s.id), [second.id]);
  // Deleting the default promotes the oldest remaining scale.
  assertEquals(
    (await api(t.app, "DELETE", `/v1/grading-scales/${first.id}`, { token: w.editor.token }))
      .status,
    204,
  );
  const after = await api(t.app, "GET", "/v1/grading-scales/lookup", { token: w.editor.token });
  assertEquals(after.body.data[0].id, second.id);
  assertEquals(after.body.data[0].isDefault, true);
});

Deno.test("grading scale levels: duplicates refused, replacing keeps ids of kept values and grades", async () => {
  const dup = await api(t.app, "POST", "/v1/grading-scales", {
    token: w.editor.token,
    body: { name: "Dup", levels: [levels[0], levels[0]] },
  });
  assertEquals(dup.status, 400);
  const none = await api(t.app, "POST", "/v1/grading-scales", {
    token: w.editor.token,
    body: { name: "Empty", levels: [] },
  });
  assertEquals(none.status, 400);
  const scale = await post(w, "/v1/grading-scales", { name: "Replace me", levels });
  const levelA = scale.levels[0];
  const e = await newEnrollment();
  const plan = await post(w, `/v1/enrollments/${e.id}/lesson-plans`, planBody);
  const item = plan.sections[0].items[0];
  const graded = await patchItem(plan.id, item.id, { gradeLevelId: levelA.id });
  assertEquals(graded.body.gradeLevelId, levelA.id);
  const replaced = await api(t.app, "PATCH", `/v1/grading-scales/${scale.id}`, {
    token: w.editor.token,
    body: { levels: [{ ...levels[0], label: "Top" }, { value: "d", label: "New", sortOrder: 9 }] },
  });
  assertEquals(replaced.status, 200);
  assertEquals(replaced.body.levels.map((l: { value: string }) => l.value), ["a", "d"]);
  assertEquals(replaced.body.levels[0].id, levelA.id);
  assertEquals(replaced.body.levels[0].label, "Top");
  const again = await api(t.app, "GET", `/v1/lesson-plans/${plan.id}`, { token: w.editor.token });
  assertEquals(again.body.sections[0].items[0].gradeLevelId, levelA.id);
});

Deno.test("concurrent 'make me default' scale creations leave exactly one default", async () => {
  const results = await Promise.all(
    Array.from({ length: 4 }, (_, i) =>
      api(t.app, "POST", "/v1/grading-scales", {
        token: w.editor.token,
        body: { name: `Race ${i}`, isDefault: true, levels },
      })),
  );
  assert(results.every((r) => r.status === 201), results.map((r) => r.text).join("\n"));
  const lookup = await api(t.app, "GET", "/v1/grading-scales/lookup", { token: w.editor.token });
  assertEquals(lookup.body.data.filter((s: { isDefault: boolean }) => s.isDefault).length, 1);
});
