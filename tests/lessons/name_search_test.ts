/**
 * The enrollments list's `q` reads the enrollment's own copy of its member's name
 * (`enrollments.search`, app/accounts/name_copies.ts): found by the name as it is now, also
 * when renames race enrollments.
 */
import { assertEquals } from "../_helpers/assert.ts";
import { sql } from "../_helpers/test_db.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import {
  enroll,
  instructor,
  lessonsSuite,
  type LessonsWorld,
  lessonType,
  member,
  slot,
} from "./_fixtures.ts";

let t: TestApp;
let w: LessonsWorld;
lessonsSuite((s) => ({ t, u: w } = s));

const word = () => `w${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;

async function found(q: string): Promise<string[]> {
  const res = await api(t.app, "GET", `/v1/enrollments?q=${encodeURIComponent(q)}&limit=100`, {
    token: w.editor.token,
  });
  assertEquals(res.status, 200, res.text);
  return res.body.data.map((row: { id: string }) => row.id).sort();
}

async function assertCopiesInStep(): Promise<void> {
  const { rows } = await sql<{ id: string }>`
    SELECT e.id FROM enrollments e JOIN members m ON m.id = e.member_id
    WHERE e.search <> lower(m.first_name || ' ' || m.last_name)`.execute(t.deps.db);
  assertEquals(rows, []);
}

async function rename(memberId: string, lastName: string) {
  return await api(t.app, "PATCH", `/v1/members/${memberId}`, {
    token: w.editor.token,
    body: { lastName },
  });
}

Deno.test("an enrollment is found by its member's name as it is now", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const seat = await slot(w, teacher.id, type.id);
  const student = await member(w, "Quinn");
  const enrollment = await enroll(w, student, seat.id);
  assertEquals(await found("quinn student"), [enrollment.id]);
  const last = word();
  assertEquals((await rename(student, last)).status, 200);
  assertEquals(await found("quinn student"), [], "not by the old name");
  assertEquals(await found(`Quinn ${last}`), [enrollment.id]);
  await assertCopiesInStep();
});

Deno.test("enrollments made while their members are renamed copy the final names", async () => {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  const seat = await slot(w, teacher.id, type.id, { maxStudents: 10 });
  const students = await Promise.all(Array.from({ length: 5 }, () => member(w)));
  const results = await Promise.all([
    ...students.map((id) =>
      api(t.app, "POST", "/v1/enrollments", {
        token: w.editor.token,
        body: {
          memberId: id,
          slotId: seat.id,
          startDate: "2026-12-01",
          billingInterval: "monthly",
        },
      })
    ),
    ...students.map((id) => rename(id, word())),
  ]);
  assertEquals(results.map((r) => r.status), [...Array(5).fill(201), ...Array(5).fill(200)]);
  await assertCopiesInStep();
});
