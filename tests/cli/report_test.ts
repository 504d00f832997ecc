/**
 * `ops report z|daily` and `ops drawers list` on the database directly, as a user runs them (a
 * child process on a prepared data directory): the API's JSON, one aligned table per section
 * with money right-aligned and times in the store's time zone, and `section,item,count,amount`
 * CSV; sessions by register and cashier, voids by cashier, one sign convention (money that
 * moves one way is a positive magnitude under a label saying which way).
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
import { voidTransaction } from "../../app/pos/void_and_refund.ts";
import { addAdjustment } from "../../app/pos/adjustments.ts";

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
    const voided = await createTransaction(deps, actor, {
      locationId,
      registerId: register.id,
      type: "sale",
      items: [{ description: "Tuner", quantity: 1, unitPrice: "7.50" }],
    });
    await voidTransaction(deps, actor, voided.id, { reason: "Wrong item" });
    await addAdjustment(deps, actor, session.id, {
      direction: "out",
      amount: "20.00",
      reason: "Bank drop",
    });
    await closeDrawer(deps, actor, session.id, { closingBalance: "104.00" });
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
  "ops report z --register prints its latest session, one table per section, money right-aligned",
  async () => {
    // One at a time: a second process cannot open the embedded database while one has it.
    const table = await ops(place, ["report", "z", "--register", "front"]);
    const csv = await ops(place, ["report", "z", "--drawer", openSessionId, "--format", "csv"]);
    assertEquals(table.code, 0, table.stderr);
    assertMatch(
      table.stdout,
      /^Z report of register Front, cashier Ada Admin: opened \d{4}-\d\d-\d\d \d\d:\d\d \([\w/]+\), closed /,
    );
    assertMatch(table.stdout, /^SALES\s+COUNT\s+AMOUNT$/m);
    assertMatch(table.stdout, /^Transactions\s+1$/m);
    assertMatch(table.stdout, /^PAYMENTS\s+COUNT\s+NET\ncash\s+1\s+25\.00$/m);
    assertMatch(table.stdout, /^CASH DRAWER\s+AMOUNT$/m);
    assertMatch(table.stdout, /^Cash out\s+20\.00$/m);
    assertMatch(table.stdout, /^Over\/short\s+-1\.00$/m);
    // Cash out is a positive amount under its label, in both sections.
    assertMatch(table.stdout, /^CASH IN\/OUT\s+AMOUNT\nCash out: Bank drop\s+20\.00$/m);
    assertMatch(
      table.stdout,
      /^VOIDS\s+COUNT\s+AMOUNT\nVoided\s+1\s+7\.50\nby Ada Admin\s+1\s+7\.50$/m,
    );
    // Right-aligned: each amount of a section ends in the column where AMOUNT ends.
    const cash = table.stdout.split("\n\n").find((s) => s.startsWith("CASH DRAWER"))!;
    const [header, ...rows] = cash.split("\n");
    for (const row of rows) assertEquals(row.length, header!.length, row);
    assertEquals(table.stdout.includes("SECTION"), false);
    assertEquals(table.stdout.includes(sessionId), false);

    assertEquals(csv.code, 0, csv.stderr);
    const lines = csv.stdout.split("\r\n");
    assertEquals(lines[0], "section,item,count,amount");
    assertStringIncludes(csv.stdout, "\r\ncash,Opening balance,,10.00\r\n");
    assertStringIncludes(csv.stdout, "\r\nsales,Transactions,0,\r\n");
    assertStringIncludes(csv.stdout, "\r\nvoids,Voided,0,0.00\r\n");
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
    assertEquals(daily.cashAccountability.closingBalance, "104.00");
    assertEquals(daily.sessions.map((s: { register: { name: string } }) => s.register.name), [
      "Front",
      "Back",
    ]);
    assertEquals(daily.voids.count, 1);

    assertEquals(table.code, 0, table.stderr);
    assertMatch(table.stdout, /^Daily report: Main Street, \d{4}-\d\d-\d\d \(generated /);
    assertMatch(table.stdout, /^PAYMENTS\s+COUNT\s+NET\ncash\s+1\s+25\.00$/m);
    assertMatch(table.stdout, /^by Ada Admin\s+1\s+7\.50$/m);
    assertMatch(
      table.stdout,
      /^REGISTER\s+CASHIER\s+KIND\s+OPENED\s+CLOSED\s+TX\s+TOTAL\s+EXPECTED\s+CLOSING\s+OVER\/SHORT\s+SESSION$/m,
    );
    assertMatch(
      table.stdout,
      new RegExp(
        `^Front\\s+Ada Admin\\s+Z\\s+.*\\s+1\\s+25\\.00\\s+105\\.00\\s+104\\.00\\s+-1\\.00\\s+${sessionId}$`,
        "m",
      ),
    );

    assertEquals(csv.code, 0, csv.stderr);
    assertStringIncludes(csv.stdout, "\r\nsales,Total,,25.00\r\n");
    assertStringIncludes(csv.stdout, "\r\nsessions,Front (Ada Admin),1,25.00\r\n");
    assertStringIncludes(csv.stdout, "\r\nvoids,by Ada Admin,1,7.50\r\n");
    assertStringIncludes(csv.stdout, "\r\nadjustments,Cash out: Bank drop,,20.00\r\n");
    assert(csv.stdout.endsWith("\r\n"));
  },
);

embeddedRunTest(
  "ops report: bad input exits 2, an unknown drawer, register or location 1",
  async () => {
    const results = await opsAll(place, {
      badDate: ["report", "daily", "--location", "Main Street", "--date", "21-11-2026"],
      badDrawer: ["report", "z", "--drawer", "nope"],
      noDrawer: ["report", "z"],
      both: ["report", "z", "--drawer", sessionId, "--register", "Front"],
      badStatus: ["drawers", "list", "--status", "gone"],
    });
    for (const result of Object.values(results)) assertEquals(result.code, 2, result.stderr);
    assertStringIncludes(results.badDate.stderr, "--date");
    assertStringIncludes(results.noDrawer.stderr, "--register");
    assertStringIncludes(results.both.stderr, "not both");
    assertStringIncludes(results.badStatus.stderr, "--status");
    const unknownDrawer = await ops(place, ["report", "z", "--drawer", crypto.randomUUID()]);
    assertEquals(unknownDrawer.code, 1);
    const unknownRegister = await ops(place, ["report", "z", "--register", "Side"]);
    assertEquals(unknownRegister.code, 1);
    assertStringIncludes(unknownRegister.stderr, 'No register "Side"');
    const unknownLocation = await ops(place, ["report", "daily", "--location", "Nowhere"]);
    assertEquals(unknownLocation.code, 1);
    assertStringIncludes(unknownLocation.stderr, 'No location "Nowhere"');
  },
);

embeddedRunTest(
  "ops drawers list names each session's register and cashier, newest first",
  async () => {
    const table = await ops(place, ["drawers", "list"]);
    const open = await ops(place, [
      "drawers",
      "list",
      "--register",
      "back",
      "--location",
      "Main Street",
      "--status",
      "open",
      "--json",
    ]);
    const csv = await ops(place, ["drawers", "list", "--status", "closed", "--format", "csv"]);
    assertEquals(table.code, 0, table.stderr);
    assertMatch(
      table.stdout,
      /^REGISTER\s+CASHIER\s+STATUS\s+OPENED\s+CLOSED\s+OPENING\s+EXPECTED\s+CLOSING\s+OVER\/SHORT\s+SESSION$/m,
    );
    const rows = table.stdout.trimEnd().split("\n").slice(1);
    assertEquals(rows.length, 2);
    assertMatch(
      rows[0]!,
      new RegExp(`^Back\\s+Ada Admin\\s+open\\s+.*\\s+10\\.00\\s+${openSessionId}$`),
    );
    assertMatch(
      rows[1]!,
      new RegExp(
        `^Front\\s+Ada Admin\\s+closed\\s+.*\\s+105\\.00\\s+104\\.00\\s+-1\\.00\\s+${sessionId}$`,
      ),
    );

    assertEquals(open.code, 0, open.stderr);
    const page = JSON.parse(open.stdout);
    assertEquals(page.data.map((s: { id: string }) => s.id), [openSessionId]);
    assertEquals(page.data[0].register.name, "Back");
    assertEquals(page.data[0].cashier.name, "Ada Admin");

    assertEquals(csv.code, 0, csv.stderr);
    assertEquals(
      csv.stdout.split("\r\n")[0],
      "REGISTER,CASHIER,STATUS,OPENED,CLOSED,OPENING,EXPECTED,CLOSING,OVER/SHORT,SESSION",
    );
    assertStringIncludes(csv.stdout, "\r\nFront,Ada Admin,closed,");
  },
);

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
