/**
 * `ops scan CODE` on the database directly (a child process on a prepared data directory):
 * a table of the record's fields (kind, label, id and what the clerk asks next: status,
 * account, balance...), `--json` with the record, several matches exit 1 naming each
 * candidate, nothing exits 1, a misread barcode exits 1 with `invalid_check_digit`; the
 * README's own `ops scan VN-2231` finds the violin by its repair ticket's serial.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { ops, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { createProductBody } from "../../app/inventory/inventory_schemas.ts";
import { createProduct } from "../../app/inventory/products.ts";
import { createUnit } from "../../app/inventory/units.ts";
import { createAccount } from "../../app/accounts/accounts.ts";
import { createAccountBody } from "../../app/accounts/account_schemas.ts";
import { createTicket } from "../../app/repairs/tickets.ts";
import { createTicketBody } from "../../app/repairs/ticket_schemas.ts";

let place: OpsPlace;
const ids: Record<string, string> = {};

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
  await withDataDir(place.dataDir, async (deps) => {
    for (const [sku, upc] of [["TRP-1", "036000291452"], ["TRP-2", null]] as const) {
      const product = await createProduct(
        deps,
        SYSTEM_ACTOR,
        createProductBody.parse({
          name: `Trumpet ${sku}`,
          sku,
          upc,
          price: "450.00",
          type: "serialized",
        }),
      );
      ids[sku] = product.id;
      const unit = await createUnit(deps, product.id, {
        serialNumber: "SHARED-9",
        status: "in_stock",
        condition: "new",
      });
      ids[`unit-${sku}`] = unit.id;
    }
    const grace = await createAccount(
      deps,
      createAccountBody.parse({ name: "Grace Hopper", email: "grace@example.com" }),
    );
    const ticket = await createTicket(
      deps,
      SYSTEM_ACTOR,
      createTicketBody.parse({
        accountId: grace.id,
        itemDescription: "Violin 4/4",
        serialNumber: "VN-2231",
        estimate: "80.00",
      }),
    );
    ids.ticket = ticket.id;
    ids.ticketNumber = ticket.ticketNumber;
    for (const [sku, name] of HOSTILE_NAMES) {
      const product = await createProduct(
        deps,
        SYSTEM_ACTOR,
        createProductBody.parse({ name, sku, price: "9.99", type: "serialized" }),
      );
      ids[sku] = product.id;
      await createUnit(deps, product.id, {
        serialNumber: "ESC-SHARED",
        status: "in_stock",
        condition: "new",
      });
    }
  });
});

/** Stored names that would run in a spreadsheet or drive the operator's terminal. */
const HOSTILE_NAMES = [
  ["CSV-1", '=HYPERLINK("http://x","Trumpet")'],
  ["ESC-1", "\u001b[2J\u001b]0;owned\u0007Clear\u0007 \u009b31mscreen\u001b[0m"],
] as const;

/** What a terminal acts on: C0 but tab and line feed, DEL, C1. */
// deno-lint-ignore no-control-regex
const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
});

embeddedRunTest(
  "ops scan: a UPC and its EAN-13 form print the product; --json carries the record",
  async () => {
    const table = await ops(place, ["scan", "036000291452"]);
    assertEquals(table.code, 0, table.stderr);
    assertStringIncludes(table.stdout, "product");
    assertStringIncludes(table.stdout, "Trumpet TRP-1 (TRP-1)");
    assertStringIncludes(table.stdout, ids["TRP-1"]!);

    const json = await ops(place, ["scan", " 0036000291452 ", "--json"]);
    assertEquals(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assertEquals([result.kind, result.id, result.record.sku], ["product", ids["TRP-1"], "TRP-1"]);
  },
);

embeddedRunTest(
  "ops scan VN-2231: the violin by its repair ticket's serial, with status, account and item",
  async () => {
    const table = await ops(place, ["scan", "VN-2231"]);
    assertEquals(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split("\n").map((line) => line.split(/\s{2,}/));
    const fields = Object.fromEntries(lines.map(([field, ...value]) => [field, value.join(" ")]));
    assertEquals(fields, {
      Field: "Value",
      Kind: "repair_ticket",
      Label: `${ids.ticketNumber} Violin 4/4`,
      Id: ids.ticket,
      Ticket: ids.ticketNumber,
      Status: "new",
      Account: "Grace Hopper",
      Item: "Violin 4/4",
      Serial: "VN-2231",
      "Due date": "",
      Estimate: "80.00",
      "Balance due": "0.00",
    });

    const csv = await ops(place, ["scan", "vn-2231", "--format", "csv"]);
    assertEquals(csv.code, 0, csv.stderr);
    assertEquals(
      csv.stdout,
      "Kind,Label,Id,Ticket,Status,Account,Item,Serial,Due date,Estimate,Balance due\r\n" +
        `repair_ticket,${ids.ticketNumber} Violin 4/4,${ids.ticket},${ids.ticketNumber},new,` +
        "Grace Hopper,Violin 4/4,VN-2231,,80.00,0.00\r\n",
    );
  },
);

embeddedRunTest(
  "ops scan: ambiguous, unknown and misread codes exit 1 with one line saying so",
  async () => {
    const ambiguous = await ops(place, ["scan", "shared-9"]);
    assertEquals(ambiguous.code, 1);
    assertMatch(ambiguous.stderr, /^error: 2 records match this code: unit .*\(ambiguous\)\n$/);
    assertStringIncludes(ambiguous.stderr, ids["unit-TRP-1"]!);
    assertStringIncludes(ambiguous.stderr, ids["unit-TRP-2"]!);

    const unknown = await ops(place, ["scan", "NOPE-1"]);
    assertEquals(unknown.code, 1);
    assertStringIncludes(unknown.stderr, "Nothing matches this code");

    const misread = await ops(place, ["scan", "036000291453"]);
    assertEquals(misread.code, 1);
    assertStringIncludes(misread.stderr, "check digit");
  },
);

embeddedRunTest(
  "ops scan --format csv: a stored formula gets a leading quote, so a spreadsheet shows it as text",
  async () => {
    const csv = await ops(place, ["scan", "CSV-1", "--format", "csv"]);
    assertEquals(csv.code, 0, csv.stderr);
    assertEquals(
      csv.stdout,
      "Kind,Label,Id,SKU,UPC,Price,On hand,Type,Active\r\n" +
        `product,"'=HYPERLINK(""http://x"",""Trumpet"") (CSV-1)",${ids["CSV-1"]},CSV-1,,9.99,` +
        "0,serialized,yes\r\n",
    );
    // The JSON keeps the name as stored (a terminal runs no formula).
    const json = await ops(place, ["scan", "CSV-1", "--json"]);
    assertEquals(JSON.parse(json.stdout).record.name, HOSTILE_NAMES[0][1]);
  },
);

embeddedRunTest(
  "ops scan: a name with escape sequences prints without them in a table, CSV and errors; JSON escapes them",
  async () => {
    const table = await ops(place, ["scan", "ESC-1"]);
    assertEquals(table.code, 0, table.stderr);
    assert(!TERMINAL_CONTROL.test(table.stdout), JSON.stringify(table.stdout));
    assertStringIncludes(table.stdout, "Clear screen (ESC-1)");

    const csv = await ops(place, ["scan", "ESC-1", "--format", "csv"]);
    assert(!TERMINAL_CONTROL.test(csv.stdout.replaceAll("\r\n", "")), JSON.stringify(csv.stdout));
    assertStringIncludes(csv.stdout, "\r\nproduct,Clear screen (ESC-1),");

    const json = await ops(place, ["scan", "ESC-1", "--json"]);
    assert(!TERMINAL_CONTROL.test(json.stdout.replaceAll("\n", "")), JSON.stringify(json.stdout));
    assertEquals(JSON.parse(json.stdout).record.name, HOSTILE_NAMES[1][1]);

    const ambiguous = await ops(place, ["scan", "esc-shared"]);
    assertEquals(ambiguous.code, 1);
    assert(!TERMINAL_CONTROL.test(ambiguous.stderr.slice(0, -1)), JSON.stringify(ambiguous.stderr));
    assertStringIncludes(ambiguous.stderr, "unit Clear screen, serial ESC-SHARED");
    assertStringIncludes(ambiguous.stderr, `unit =HYPERLINK("http://x","Trumpet"), serial`);
  },
);
