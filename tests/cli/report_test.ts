/**
 * `ops report z|daily` on the database directly, as a user runs them (a child process on a
 * prepared data directory): the API's JSON, one aligned table per section with money
 * right-aligned and times in the store's time zone, and `section,item,count,amount` CSV.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { ops, opsAll, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";
import type { Actor } from "../../app/actor.ts";
import { createRegister } from "../../app/pos/registers.ts";
import { closeDrawer, openDrawer } from "../../app/pos/drawers.ts";
import { createTransaction } from "../../app/pos/transactions.ts";
import { addPayment } from "../../app/pos/payments.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";

let dataDir: string;
let place: OpsPlace;
let sessionId: string;
let openSessionId: string;

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
  dataDir = place.dataDir;
  await withDataDir(dataDir, async (deps) => {
    const user = await deps.db.selectFrom("users").select(["id", "email"])
      .executeTakeFirstOrThrow();
    const actor: Actor = {
      userId: user.id,
      email: user.email,
      kind: "access",
      permissions: new Set(["pos.admin", "pos.override"]),
    };
    const locationId = deps.ids.uuid();
    await deps.db.insertInto("locations").values({
      id: locationId,
      name: "Main Street",
      created_at: new Date(),
      updated_at: new Date(),
    }).execute();
    const register = await createRegister(deps, { name: "Front", locationId });
    const session = await openDrawer(deps, actor, {
      registerId: register.id,
      openingBalance: "100.00",
    });
    const tx = await createTransaction(deps, actor, {
      locationId,
      type: "sale",
      items: [{ description: "Metronome", quantity: 2, unitPrice: "12.50" }],
    });
    await addPayment(deps, actor, tx.id, { method: "cash", amount: "25.00", tendered: "30.00" });
    await completeTransaction(deps, actor, tx.id, undefined);
    await closeDrawer(deps, actor, session.id, { closingBalance: "124.00" });
    sessionId = session.id;
    const register2 = await createRegister(deps, { name: "Back", locationId });
    openSessionId = (await openDrawer(deps, actor, {
      registerId: register2.id,
      openingBalance: "10.00",
    })).id;
  });
});
embeddedRunTest.afterAll(async () => {
  await removeDir(dataDir);
});

embeddedRunTest(
  "ops report z prints one table per section, money right-aligned; an open session gives its X report",
  async () => {
    // One at a time: a second process cannot open the embedded database while one has it.
    const table = await ops(place, ["report", "z", "--drawer", sessionId]);
    const csv = await ops(place, ["report", "z", "--drawer", openSessionId, "--format", "csv"]);
    assertEquals(table.code, 0, table.stderr);
    assertMatch(
      table.stdout,
      /^Z report of drawer session [-0-9a-f]{36}: opened \d{4}-\d\d-\d\d \d\d:\d\d \([\w/]+\), closed /,
    );
    assertMatch(table.stdout, /^SALES\s+COUNT\s+AMOUNT$/m);
    assertMatch(table.stdout, /^Transactions\s+1$/m);
    assertMatch(table.stdout, /^CASH DRAWER\s+AMOUNT$/m);
    assertMatch(table.stdout, /^Over\/short\s+-1\.00$/m);
    // Right-aligned: each amount of a section ends in the column where AMOUNT ends.
    const cash = table.stdout.split("\n\n").find((s) => s.startsWith("CASH DRAWER"))!;
    const [header, ...rows] = cash.split("\n");
    for (const row of rows) assertEquals(row.length, header!.length, row);
    assertEquals(table.stdout.includes("SECTION"), false);

    assertEquals(csv.code, 0, csv.stderr);
    const lines = csv.stdout.split("\r\n");
    assertEquals(lines[0], "section,item,count,amount");
    assertStringIncludes(csv.stdout, "\r\ncash,Opening balance,,10.00\r\n");
    assertStringIncludes(csv.stdout, "\r\nsales,Transactions,0,\r\n");
    assertStringIncludes(csv.stderr, "X report");
  },
);

embeddedRunTest(
  "ops report daily --location NAME rolls up the day in JSON, a table and CSV",
  async () => {
    const json = await ops(place, [
      "report",
      "daily",
      "--location",
      "main street",
      "--format",
      "json",
    ]);
    const table = await ops(place, ["report", "daily", "--location", "Main Street"]);
    const csv = await ops(place, [
      "report",
      "daily",
      "--location",
      "Main Street",
      "--format",
      "csv",
    ]);
    assertEquals(json.code, 0, json.stderr);
    const daily = JSON.parse(json.stdout);
    assertEquals(daily.sessions.length, 2);
    assertEquals(daily.salesSummary.transactionCount, 1);
    assertEquals(daily.cashAccountability.closingBalance, "124.00");

    assertEquals(table.code, 0, table.stderr);
    assertMatch(table.stdout, /^Daily report: Main Street, \d{4}-\d\d-\d\d \(generated /);
    assertMatch(table.stdout, /^PAYMENTS\s+COUNT\s+AMOUNT\ncash\s+1\s+25\.00$/m);
    assertMatch(
      table.stdout,
      /^SESSION\s+KIND\s+OPENED\s+CLOSED\s+TX\s+TOTAL\s+EXPECTED\s+CLOSING\s+OVER\/SHORT$/m,
    );
    assertMatch(
      table.stdout,
      new RegExp(
        `^${sessionId}\\s+Z\\s+.*\\s+1\\s+25\\.00\\s+125\\.00\\s+124\\.00\\s+-1\\.00$`,
        "m",
      ),
    );

    assertEquals(csv.code, 0, csv.stderr);
    assertStringIncludes(csv.stdout, "\r\nsales,Total,,25.00\r\n");
    assertStringIncludes(csv.stdout, `\r\nsessions,${sessionId},1,25.00\r\n`);
    assert(csv.stdout.endsWith("\r\n"));
  },
);

embeddedRunTest("ops report: bad input exits 2, an unknown drawer or location 1", async () => {
  const results = await opsAll(place, {
    badDate: ["report", "daily", "--location", "Main Street", "--date", "21-11-2026"],
    badDrawer: ["report", "z", "--drawer", "nope"],
    noDrawer: ["report", "z"],
  });
  for (const result of Object.values(results)) assertEquals(result.code, 2, result.stderr);
  assertStringIncludes(results.badDate.stderr, "--date");
  const unknownDrawer = await ops(place, ["report", "z", "--drawer", crypto.randomUUID()]);
  assertEquals(unknownDrawer.code, 1);
  const unknownLocation = await ops(place, ["report", "daily", "--location", "Nowhere"]);
  assertEquals(unknownLocation.code, 1);
  assertStringIncludes(unknownLocation.stderr, 'No location "Nowhere"');
});

embeddedRunTest(
  "ops report daily without --location takes the shop's one active location; with two it asks to name one",
  async () => {
    const only = await ops(place, ["report", "daily", "--format", "json"]);
    assertEquals(only.code, 0, only.stderr);
    assertEquals(JSON.parse(only.stdout).salesSummary.transactionCount, 1);
    const second = crypto.randomUUID();
    await withDataDir(dataDir, (deps) =>
      deps.db.insertInto("locations").values({
        id: second,
        name: "Harbour Road",
        created_at: new Date(),
        updated_at: new Date(),
      }).execute());
    const two = await ops(place, ["report", "daily"]);
    assertEquals(two.code, 2, two.stderr);
    assertStringIncludes(
      two.stderr,
      'The shop has 2 active locations ("Harbour Road", "Main Street"): name one with --location',
    );
    await withDataDir(
      dataDir,
      (deps) =>
        deps.db.updateTable("locations").set({ is_active: false }).where("id", "=", second)
          .execute(),
    );
    const active = await ops(place, ["report", "daily"]);
    assertEquals(active.code, 0, active.stderr);
    assertMatch(active.stdout, /^Daily report: Main Street, /);
  },
);
