/** Shared set-up for the lessons tests: a manager token and factories over the HTTP API. */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { suiteOf } from "../_helpers/suite.ts";

export interface LessonsWorld {
  t: TestApp;
  editor: TestUser;
}

let counter = 0;

export async function lessonsWorld(t: TestApp): Promise<LessonsWorld> {
  const editor = await createUserWithPermissions(t, ["lessons.edit", "accounts.edit"]);
  return { t, editor };
}

/**
 * One app (own database) for the test file with its lessons world, ready before the first test:
 * `lessonsSuite((s) => ({ t, u: w } = s))`.
 */
export const lessonsSuite = suiteOf(lessonsWorld);

// deno-lint-ignore no-explicit-any
type Json = any;

export async function post(
  w: LessonsWorld,
  path: string,
  body: unknown,
  expected = 201,
): Promise<Json> {
  const res = await api(w.t.app, "POST", path, { token: w.editor.token, body });
  assertEquals(res.status, expected, `${path}: ${res.text}`);
  return res.body;
}

export async function lessonType(w: LessonsWorld, overrides: Record<string, unknown> = {}) {
  return await post(w, "/v1/lesson-types", {
    name: `Guitar ${++counter}`,
    description: "Beginner guitar",
    durationMinutes: 30,
    ratePresets: { weekly: "25.00", monthly: 90, quarterly: "250.00" },
    ...overrides,
  });
}

export async function instructor(w: LessonsWorld, overrides: Record<string, unknown> = {}) {
  return await post(w, "/v1/instructors", {
    firstName: "Ada",
    lastName: `Teacher${++counter}`,
    email: `teacher${counter}@example.test`,
    isActive: true,
    ...overrides,
  });
}

export async function slot(
  w: LessonsWorld,
  instructorId: string,
  lessonTypeId: string,
  overrides: Record<string, unknown> = {},
) {
  return await post(w, "/v1/schedule-slots", {
    instructorId,
    lessonTypeId,
    dayOfWeek: 2,
    startTime: "16:00",
    durationMinutes: 30,
    maxStudents: 2,
    isActive: true,
    ...overrides,
  });
}

/** A member, made through the accounts API (POST /accounts with a primary contact). */
export async function member(w: LessonsWorld, firstName = "Sam"): Promise<string> {
  const account = await post(w, "/v1/accounts", {
    primaryContact: { firstName, lastName: `Student${++counter}` },
  });
  return account.primaryMemberId;
}

export async function enroll(
  w: LessonsWorld,
  memberId: string,
  slotId: string,
  overrides: Record<string, unknown> = {},
  expected = 201,
) {
  return await post(w, "/v1/enrollments", {
    memberId,
    slotId,
    startDate: "2026-12-01",
    billingInterval: "monthly",
    ...overrides,
  }, expected);
}
