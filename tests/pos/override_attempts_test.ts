/**
 * Manager-override codes against guessing (issue 15, item 3; API §2, §8): every attempt is
 * reserved on the PIN counter of the employee number's holder before the PIN is checked, so parallel guesses
 * cannot exceed the lockout; every refused code gets one and the same 403 body, so a refusal
 * never tells a cashier that a colleague's PIN was right.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { testServerUrl } from "../_helpers/test_db.ts";
import type { Actor } from "../../app/actor.ts";
import { withTransaction } from "../../app/db/transaction.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import { withApproval } from "../../app/pos/overrides.ts";
import { userPinCounterKey } from "../../domain/auth/pin.ts";
import {
  makeLocation,
  makeRegister,
  MANAGER_PIN,
  openDrawer,
  posSuite,
  type PosUsers,
  setPin,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;

posSuite((s) => ({ t, u } = s));

const BODY = { direction: "in", amount: "1.00", reason: "Float" };

async function adjustmentsPath(): Promise<string> {
  const register = await makeRegister(t, u, await makeLocation(t));
  const session = await openDrawer(t, u, register.id);
  return `/v1/drawers/${session.id}/adjustments`;
}

async function newManager() {
  const manager = await createUserWithPermissions(t, ["pos.edit", "pos.override"]);
  await setPin(t, manager.id, MANAGER_PIN);
  return manager;
}

function withCode(code: string) {
  return { ...BODY, override: { code } };
}

/** The problem body without what differs per request (requestId). */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _requestId, ...rest } = body;
  return rest;
}

/** The wrong PINs counted on the user's counter (it stays theirs when they are renumbered). */
async function failuresOf(user: { id: string }): Promise<number> {
  const row = await t.deps.db.selectFrom("pin_login_failures").select("failures")
    .where("counter_key", "=", userPinCounterKey(user.id)).executeTakeFirst();
  return row?.failures ?? 0;
}

async function evaluatedFailures(employeeNumber: string): Promise<number> {
  const rows = await t.deps.db.selectFrom("audit_log").select("details")
    .where("action", "=", "pos.override_failed").execute();
  return rows.filter((r) =>
    (r.details as { employeeNumber?: string }).employeeNumber ===
      employeeNumber
  ).length;
}

Deno.test("every refused override code gets one and the same 403 body, whatever was wrong", async () => {
  const path = await adjustmentsPath();
  const manager = await newManager();
  const disabled = await newManager();
  await t.deps.db.updateTable("users").set({ is_active: false }).where("id", "=", disabled.id)
    .execute();
  const colleague = await createUserWithPermissions(t, ["pos.edit"]);
  await setPin(t, colleague.id, "2468");
  const caller = await createUserWithPermissions(t, ["pos.edit"]);
  await setPin(t, caller.id, "1357");

  const attempts: Array<[string, string]> = [
    ["wrong PIN", `${manager.employeeNumber}0000`],
    ["unknown employee number", "00001111"],
    ["right PIN of a user without pos.override", `${colleague.employeeNumber}2468`],
    ["right PIN of a disabled manager", `${disabled.employeeNumber}${MANAGER_PIN}`],
    ["the caller's own code", `${caller.employeeNumber}1357`],
    ["not 8 digits", "12ab"],
  ];
  const bodies: Array<[string, Record<string, unknown>]> = [];
  for (const [what, code] of attempts) {
    const res = await api(t.app, "POST", path, { token: caller.token, body: withCode(code) });
    assertEquals(res.status, 403, `${what}: ${res.text}`);
    bodies.push([what, stable(res.body)]);
  }
  // Lock one manager's number: the refusal while locked looks the same as well.
  const locked = await newManager();
  for (let i = 0; i < 5; i++) {
    await api(t.app, "POST", path, {
      token: caller.token,
      body: withCode(`${locked.employeeNumber}000${i}`),
    });
  }
  const whileLocked = await api(t.app, "POST", path, {
    token: caller.token,
    body: withCode(`${locked.employeeNumber}${MANAGER_PIN}`),
  });
  assertEquals(whileLocked.status, 403);
  bodies.push(["locked employee number", stable(whileLocked.body)]);

  const [, first] = bodies[0]!;
  assertEquals(first.code, "manager_override_required");
  for (const [what, body] of bodies) assertEquals(body, first, what);

  // The right code of an active manager still works.
  const ok = await api(t.app, "POST", path, {
    token: caller.token,
    body: withCode(`${manager.employeeNumber}${MANAGER_PIN}`),
  });
  assertEquals(ok.status, 201, ok.text);
  assertEquals(ok.body.approvedBy, manager.id);
});

Deno.test("a right PIN of an ineligible approver counts as a wrong one; a valid approval releases its attempt", async () => {
  const path = await adjustmentsPath();
  const colleague = await createUserWithPermissions(t, ["pos.edit"]);
  await setPin(t, colleague.id, "8642");
  await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: withCode(`${colleague.employeeNumber}8642`),
  });
  assertEquals(await failuresOf(colleague), 1);
  assertEquals(await evaluatedFailures(colleague.employeeNumber), 1);

  const manager = await newManager();
  for (let i = 0; i < 4; i++) {
    await api(t.app, "POST", path, {
      token: u.cashier.token,
      body: withCode(`${manager.employeeNumber}000${i}`),
    });
  }
  assertEquals(await failuresOf(manager), 4);
  for (let i = 0; i < 3; i++) {
    const ok = await api(t.app, "POST", path, {
      token: u.cashier.token,
      body: withCode(`${manager.employeeNumber}${MANAGER_PIN}`),
    });
    assertEquals(ok.status, 201, ok.text);
    assertEquals(await failuresOf(manager), 4, "a valid approval is released");
  }
  await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: withCode(`${manager.employeeNumber}0009`),
  });
  const locked = await api(t.app, "POST", path, {
    token: u.cashier.token,
    body: withCode(`${manager.employeeNumber}${MANAGER_PIN}`),
  });
  assertEquals(locked.status, 403, "the fifth wrong PIN locks the number");
  assertEquals(await evaluatedFailures(manager.employeeNumber), 5);
});

Deno.test({
  name:
    "100 parallel wrong override codes for one manager: at most 5 are evaluated, all refused alike",
  ignore: !testServerUrl(),
  async fn() {
    const path = await adjustmentsPath();
    const manager = await newManager();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api(t.app, "POST", path, {
          token: u.cashier.token,
          body: withCode(`${manager.employeeNumber}${String(5000 + i).padStart(4, "0")}`),
        })),
    );
    const first = stable(results[0]!.body);
    assertEquals(first.code, "manager_override_required");
    for (const res of results) {
      assertEquals(res.status, 403, res.text);
      assertEquals(stable(res.body), first);
    }
    const evaluated = await evaluatedFailures(manager.employeeNumber);
    assert(evaluated >= 1 && evaluated <= 5, `${evaluated} attempts evaluated (at most 5)`);
    const counted = await failuresOf(manager);
    assert(counted <= 5, `${counted} attempts counted (at most 5)`);
    // Locked now, even for the right code, and for PIN login alike.
    const right = await api(t.app, "POST", path, {
      token: u.cashier.token,
      body: withCode(`${manager.employeeNumber}${MANAGER_PIN}`),
    });
    assertEquals(right.status, 403);
    const login = await api(t.app, "POST", "/v1/auth/pin-login", {
      body: { code: `${manager.employeeNumber}${MANAGER_PIN}` },
    });
    assertEquals(login.status, 429);
  },
});

Deno.test("an approval only the locked look needs is asked outside the transaction, then the work runs again", async () => {
  const cashier: Actor = {
    userId: u.cashier.id,
    email: u.cashier.email,
    kind: "access",
    permissions: new Set(["pos.edit"]),
  };
  const config = (await getRuntimeConfig(t.deps.db)).managerOverride;
  const runs: Array<string | null> = [];
  const result = await withApproval(
    t.deps,
    cashier,
    "discount",
    config,
    { code: `${u.manager.employeeNumber}${MANAGER_PIN}` },
    () => Promise.resolve(false), // the first look: no approval needed
    (approval) =>
      // On the embedded engine a code checked inside this transaction would wait forever for
      // the one connection: it is checked between the two runs instead.
      withTransaction(t.deps.db, async (trx) => {
        await trx.selectFrom("users").select("id").limit(1).execute();
        runs.push(approval(true)?.userId ?? null);
        return "done";
      }),
  );
  assertEquals(result, "done");
  assertEquals(runs, [u.manager.id]);

  const refused = await withApproval(
    t.deps,
    cashier,
    "discount",
    config,
    undefined,
    () => Promise.resolve(false),
    (approval) => withTransaction(t.deps.db, () => Promise.resolve(approval(true))),
  ).catch((error) => error);
  assertEquals(refused.code, "manager_override_required");
});
