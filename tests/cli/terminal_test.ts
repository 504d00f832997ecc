/**
 * `ops` on a pseudo-terminal (util-linux `script`): confirmations asked and answered, the
 * progress bar of `lessons generate` (and the one-line summary without a terminal), colour
 * only on a terminal without NO_COLOR. Skipped where `script` is missing.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { createApp } from "../../server/app.ts";
import {
  HAS_SCRIPT,
  ops,
  opsOnTerminal,
  type OpsPlace,
  preparedPlace,
  withDataDir,
} from "./_ops.ts";

let place: OpsPlace;

/** Two students enrolled on Tuesdays from 2026-12-01 (set up through the API, in-process). */
function enrollStudents(dataDir: string, adminEmail: string): Promise<void> {
  return withDataDir(dataDir, async (deps) => {
    const app = createApp(deps);
    const post = async (path: string, body: unknown) => {
      const response = await app.request(`/v1${path}`, {
        method: "POST",
        headers: { "X-Dev-User": adminEmail, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = await response.json();
      assertEquals(response.status, 201, `${path}: ${JSON.stringify(json)}`);
      return json;
    };
    const type = await post("/lesson-types", {
      name: "Guitar",
      durationMinutes: 30,
      ratePresets: { weekly: "25.00", monthly: 90, quarterly: "250.00" },
    });
    const teacher = await post("/instructors", {
      firstName: "Ada",
      lastName: "Teacher",
      email: "teacher@example.test",
      isActive: true,
    });
    const slot = await post("/schedule-slots", {
      instructorId: teacher.id,
      lessonTypeId: type.id,
      dayOfWeek: 2,
      startTime: "16:00",
      durationMinutes: 30,
      maxStudents: 2,
      isActive: true,
    });
    for (const firstName of ["Sam", "Kim"]) {
      const account = await post("/accounts", {
        primaryContact: { firstName, lastName: "Student" },
      });
      await post("/enrollments", {
        memberId: account.primaryMemberId,
        slotId: slot.id,
        startDate: "2026-12-01",
        billingInterval: "monthly",
      });
    }
  }, { DEV_BYPASS: "true" });
}

embeddedRunTest.beforeAll(async () => {
  const prepared = await preparedPlace();
  place = prepared;
  if (HAS_SCRIPT) await enrollStudents(prepared.dataDir, prepared.adminEmail);
});
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
});

const onTerminal = { ignore: !HAS_SCRIPT, sanitizeResources: false, sanitizeOps: false };

embeddedRunTest({
  name: "migrate down on a terminal asks first; answering no changes nothing (exit 1)",
  ...onTerminal,
  fn: async () => {
    const result = await opsOnTerminal(place, ["migrate", "down"], { answer: "n" });
    assertEquals(result.code, 1, result.output);
    assertMatch(
      result.output,
      /Revert migration \d{8}_\d{6}_\w+ on the embedded database .*\[y\/N\]/,
    );
    assertStringIncludes(result.output, "error: Cancelled: nothing was changed");
  },
});

embeddedRunTest({
  name: "Ctrl-C at a confirmation exits 130 and changes nothing",
  ...onTerminal,
  fn: async () => {
    const result = await opsOnTerminal(place, ["migrate", "down"], {
      keys: [{ after: "[y/N]", type: "\x03" }],
    });
    assertEquals(result.code, 130, result.output);
    assertStringIncludes(result.output, "error: Interrupted: nothing was changed");
    const status = await ops(place, ["migrate", "status", "--json"]);
    assertEquals(status.code, 0, status.stderr);
    assert(JSON.parse(status.stdout).every((m: { applied: boolean }) => m.applied));
  },
});

embeddedRunTest({
  name:
    "vault init asks again after a too short master password; Ctrl-C at the password prompt exits 130",
  ...onTerminal,
  fn: async () => {
    // The password is asked before the server is called: no server is needed to see it.
    const result = await opsOnTerminal(place, ["vault", "init"], {
      env: { OPS_SERVER: "http://127.0.0.1:9", OPS_TOKEN: "unused" },
      keys: [
        { after: "New master password", type: "too short\r" },
        { after: "New master password", type: "\x03" },
      ],
    });
    assertEquals(result.code, 130, result.output);
    assertStringIncludes(
      result.output,
      "The master password needs at least 12 characters: try again (Ctrl-C stops).",
    );
    assertEquals(result.output.split("New master password").length, 3, "asked twice");
    assertStringIncludes(result.output, "error: Interrupted: nothing was changed");
  },
});

embeddedRunTest({
  name: "a licence change on a terminal asks first; answering yes revokes it",
  ...onTerminal,
  fn: async () => {
    const result = await opsOnTerminal(place, ["modules", "license", "vault", "--revoke"], {
      answer: "yes",
    });
    assertEquals(result.code, 0, result.output);
    assertStringIncludes(result.output, 'Revoke the licence of module "vault"?');
    assertStringIncludes(result.output, 'Module "vault" is now unlicensed, disabled.');
  },
});

embeddedRunTest({
  name: "lessons generate draws a progress bar on a terminal and prints a one-line summary without",
  ...onTerminal,
  fn: async () => {
    const window = ["--from", "2026-12-01", "--to", "2026-12-31"];
    const bar = await opsOnTerminal(place, ["lessons", "generate", ...window]);
    assertEquals(bar.code, 0, bar.output);
    assertMatch(bar.output, /Generating sessions \[=+\] 100% 10\/10/);
    assertStringIncludes(
      bar.output,
      "Sessions 2026-12-01..2026-12-31: created 10, skipped 0 existing",
    );

    const again = await ops(place, ["lessons", "generate", ...window]);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(
      again.stdout,
      "Sessions 2026-12-01..2026-12-31: created 0, skipped 10 existing, 0 blocked dates, 0 closures.\n",
    );
    assertEquals(again.stderr, "", "no bar (and no escape codes) without a terminal");
  },
});

embeddedRunTest({
  name: "tables are bold-headed on a terminal, plain with NO_COLOR or when piped",
  ...onTerminal,
  fn: async () => {
    const colour = await opsOnTerminal(place, ["modules", "list"], { env: { NO_COLOR: "" } });
    assertEquals(colour.code, 0, colour.output);
    assertStringIncludes(colour.output, "\x1b[1mSLUG\x1b[22m");
    const noColour = await opsOnTerminal(place, ["modules", "list"], { env: { NO_COLOR: "1" } });
    assert(!noColour.output.includes("\x1b[1m"), noColour.output);
    assertMatch(noColour.output, /^SLUG\s+NAME/m);
  },
});
