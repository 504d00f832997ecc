/** `ops report z|daily` as a user runs them: a child process on a prepared data directory. */
import { assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { prepareDataDir, removeDir, runOps } from "../_helpers/processes.ts";
import { testConfig } from "../_helpers/test_app.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { createDeps } from "../../app/create_deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import type { Actor } from "../../app/actor.ts";
import { createRegister } from "../../app/pos/registers.ts";
import { closeDrawer, openDrawer } from "../../app/pos/drawers.ts";
import { createTransaction } from "../../app/pos/transactions.ts";
import { addPayment } from "../../app/pos/payments.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";

let dataDir: string;
let sessionId: string;
let openSessionId: string;

Deno.test.beforeAll(async () => {
  const prepared = await prepareDataDir();
  dataDir = prepared.dataDir;
  const handle = await openDatabase({ dataDir });
  try {
    const deps = createDeps({
      config: testConfig(),
      db: handle.db,
      dbKind: "embedded",
      logger: createMemoryLogger(),
    });
    const user = await handle.db.selectFrom("users").select(["id", "email"])
      .executeTakeFirstOrThrow();
    const actor: Actor = {
      userId: user.id,
      email: user.email,
      kind: "access",
      permissions: new Set(["pos.admin", "pos.override"]),
    };
    const locationId = deps.ids.uuid();
    await handle.db.insertInto("locations").values({
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
  } finally {
    await handle.close();
  }
});
Deno.test.afterAll(async () => {
  await removeDir(dataDir);
});

Deno.test("ops report z --format json prints the frozen Z report", async () => {
  const res = await runOps(["report", "z", "--drawer", sessionId, "--format", "json"], { dataDir });
  assertEquals(res.code, 0, res.stderr);
  const report = JSON.parse(res.stdout);
  assertEquals(report.kind, "Z");
  assertEquals(report.salesSummary.total, "25.00");
  assertEquals(report.cashAccountability.expectedBalance, "125.00");
  assertEquals(report.cashAccountability.overShort, "-1.00");
});

Deno.test("ops report z prints a table and CSV; an open session gives its X report", async () => {
  const table = await runOps(["report", "z", "--drawer", sessionId], { dataDir });
  assertEquals(table.code, 0, table.stderr);
  assertStringIncludes(table.stdout, "SECTION");
  assertStringIncludes(table.stdout, "expectedBalance");
  const csv = await runOps(["report", "z", "--drawer", openSessionId, "--format", "csv"], {
    dataDir,
  });
  assertEquals(csv.code, 0, csv.stderr);
  assertStringIncludes(csv.stdout, "SECTION,FIELD,VALUE");
  assertStringIncludes(csv.stdout, "report,kind,X");
  assertStringIncludes(csv.stderr, "X report");
});

Deno.test("ops report daily --location NAME rolls up the day; bad input exits 2, unknown ids 1", async () => {
  const res = await runOps(
    ["report", "daily", "--location", "main street", "--format", "json"],
    { dataDir },
  );
  assertEquals(res.code, 0, res.stderr);
  const daily = JSON.parse(res.stdout);
  assertEquals(daily.sessions.length, 2);
  assertEquals(daily.salesSummary.transactionCount, 1);
  assertEquals(daily.cashAccountability.closingBalance, "124.00");

  assertEquals(
    (await runOps(["report", "daily", "--location", "Main Street", "--date", "21-11-2026"], {
      dataDir,
    })).code,
    2,
  );
  assertEquals((await runOps(["report", "z", "--drawer", "nope"], { dataDir })).code, 2);
  assertEquals(
    (await runOps(["report", "z", "--drawer", crypto.randomUUID()], { dataDir })).code,
    1,
  );
  assertEquals((await runOps(["report", "daily", "--location", "Nowhere"], { dataDir })).code, 1);
  assertEquals((await runOps(["report", "z"], { dataDir })).code, 2);
});
