/**
 * Employee numbers and the PIN lockout (issue 42, item 6; API §2, §3, §8): the wrong-PIN count
 * belongs to the user holding the number and follows them when they are renumbered, and giving
 * another user a different number needs every permission they hold.
 */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  withFreshApp,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { SYSTEM_ROLES } from "../../domain/auth/permissions.ts";
import { userPinCounterKey } from "../../domain/auth/pin.ts";
import { hashSecret } from "../../app/auth/passwords.ts";
import * as keyPinFailuresByUser from "../../migrations/20261204_103000_key_pin_failures_by_user.ts";
import { sql } from "kysely";
import { ALL_PERMISSIONS, movableClock } from "./_auth_helpers.ts";

let t: TestApp;
const clock = movableClock();

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" }, clock });

const MANAGER_PERMISSIONS = SYSTEM_ROLES.find((r) => r.slug === "manager")!.permissions;
const PIN = "2468";

/** Free employee numbers for the renumberings (users get theirs from 0001 upwards). */
let nextFree = 9100;
function freeNumber(): string {
  return String(++nextFree);
}

async function managerWithPin(app: TestApp) {
  const manager = await createUserWithPermissions(app, MANAGER_PERMISSIONS);
  const pinHash = await hashSecret(PIN, app.deps.config.bcryptCost);
  await app.deps.db.updateTable("users").set({ pin_hash: pinHash }).where("id", "=", manager.id)
    .execute();
  return manager;
}

function pinLogin(code: string) {
  return api(t.app, "POST", "/v1/auth/pin-login", { body: { code } });
}

/** The problem body without what differs per request (requestId). */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _requestId, ...rest } = body;
  return rest;
}

Deno.test("a manager locked out by 5 wrong PINs stays locked under a new employee number", async () => {
  const admin = await createUserWithPermissions(t, ALL_PERMISSIONS);
  const manager = await managerWithPin(t);
  for (let i = 0; i < 5; i++) {
    assertEquals((await pinLogin(`${manager.employeeNumber}000${i}`)).status, 401);
  }
  assertEquals((await pinLogin(`${manager.employeeNumber}${PIN}`)).status, 429);

  const renumbered = freeNumber();
  const patch = await api(t.app, "PATCH", `/v1/users/${manager.id}`, {
    token: admin.token,
    body: { employeeNumber: renumbered },
  });
  assertEquals(patch.status, 200, patch.text);
  assertEquals(patch.body.employeeNumber, renumbered);

  const locked = await pinLogin(`${renumbered}${PIN}`);
  assertEquals(locked.status, 429, "still locked under the new number, even for the right PIN");
  assertEquals(locked.body.code, "rate_limited");
  const guess = await pinLogin(`${renumbered}1111`);
  assertEquals(guess.status, 429, "no fresh guesses under the new number");
  // The old number is nobody's now: a wrong code like any other.
  assertEquals((await pinLogin(`${manager.employeeNumber}${PIN}`)).status, 401);

  clock.advance(15 * 60 * 1000 + 1000);
  try {
    const after = await pinLogin(`${renumbered}${PIN}`);
    assertEquals(after.status, 200, after.text);
    assertEquals(after.body.user.id, manager.id);
  } finally {
    clock.advance(-(15 * 60 * 1000 + 1000));
  }
});

Deno.test("a number nobody holds is counted on its own and refused exactly like a wrong PIN", async () => {
  const user = await managerWithPin(t);
  const nobody = freeNumber();
  const wrongPin = await pinLogin(`${user.employeeNumber}1357`);
  const unknown = await pinLogin(`${nobody}1357`);
  assertEquals(unknown.status, 401);
  assertEquals(stable(unknown.body), stable(wrongPin.body));
  for (let i = 0; i < 4; i++) assertEquals((await pinLogin(`${nobody}000${i}`)).status, 401);
  assertEquals((await pinLogin(`${nobody}${PIN}`)).status, 429);
  assertEquals((await pinLogin(`${user.employeeNumber}${PIN}`)).status, 200, "others unaffected");
});

Deno.test("renumbering another user needs every permission they hold (403 forbidden, audited)", async () => {
  const editor = await createUserWithPermissions(t, ["users.edit"]);
  const manager = await managerWithPin(t);
  const wanted = freeNumber();
  const refused = await api(t.app, "PATCH", `/v1/users/${manager.id}`, {
    token: editor.token,
    body: { employeeNumber: wanted },
  });
  assertEquals(refused.status, 403, refused.text);
  assertEquals(refused.body.code, "forbidden");
  const unchanged = await api(t.app, "GET", `/v1/users/${manager.id}`, { token: editor.token });
  assertEquals(unchanged.body.employeeNumber, manager.employeeNumber);
  const denied = await t.deps.db.selectFrom("audit_log").select(["actor_id", "details"])
    .where("action", "=", "user.update_denied").where("entity_id", "=", manager.id).execute();
  assertEquals(denied.length, 1);
  assertEquals(denied[0]!.actor_id, editor.id);

  // Names, and the number the manager already has, need only users.edit.
  const names = await api(t.app, "PATCH", `/v1/users/${manager.id}`, {
    token: editor.token,
    body: { firstName: "Renamed", employeeNumber: manager.employeeNumber },
  });
  assertEquals(names.status, 200, names.text);
  assertEquals(names.body.firstName, "Renamed");

  // A user holding less than the editor (or nothing) may be renumbered.
  for (const permissions of [["users.view"] as const, [] as const]) {
    const clerk = await createUserWithPermissions(t, permissions);
    const number = freeNumber();
    const ok = await api(t.app, "PATCH", `/v1/users/${clerk.id}`, {
      token: editor.token,
      body: { employeeNumber: number },
    });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.body.employeeNumber, number);
  }
});

Deno.test("the migration moves each counter to the user who holds its number", async () => {
  await withFreshApp({}, async (app) => {
    const manager = await createUserWithPermissions(app, ["pos.override"]);
    const db = app.deps.db;
    await keyPinFailuresByUser.down(db);
    const lockedUntil = new Date(Date.now() + 600_000);
    await sql`INSERT INTO pin_login_failures (employee_number, failures, first_failure_at,
      locked_until) VALUES (${manager.employeeNumber}, 5, now(), ${lockedUntil}),
      ('9999', 2, now(), NULL)`.execute(db);
    await keyPinFailuresByUser.up(db);
    const rows = await db.selectFrom("pin_login_failures").select(["counter_key", "failures"])
      .orderBy("counter_key").execute();
    assertEquals(rows, [
      { counter_key: "number:9999", failures: 2 },
      { counter_key: userPinCounterKey(manager.id), failures: 5 },
    ]);
  });
});
