/**
 * `ops setup`'s rules and writes in process, on both engines: the options checked one line
 * per mistake, a first setup through the same use cases as the API (audited where those are),
 * a re-run that changes nothing, the only location and register renamed rather than doubled,
 * a shop with several locations refused before anything is written. The command itself (a
 * child process, on a terminal too) is tests/cli/setup_test.ts.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { createLocation } from "../../app/platform/locations.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import { findStoreSetupGaps } from "../../app/platform/store.ts";
import { findStore } from "../../app/platform/store_repo.ts";
import { UsageError } from "../../cli/_errors.ts";
import { applySetup } from "../../cli/commands/_setup_apply.ts";
import {
  needsFirstSetup,
  parseCurrency,
  parseTaxRate,
  parseTimeZone,
  type SetupRequest,
} from "../../cli/commands/_setup_plan.ts";
import { directShop, requestFromOptions } from "../../cli/commands/setup.ts";

let t: TestApp;
Deno.test.beforeAll(async () => {
  t = await createTestApp();
});
Deno.test.afterAll(async () => {
  await t?.close();
});

const FIRST: SetupRequest = {
  storeName: "Harmony Music",
  timezone: "America/Chicago",
  currency: "USD",
  taxRates: { goods: "8.25", service: "0.00" },
  address: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
  location: "Main Street",
  register: "Front",
};

async function setUp(request: SetupRequest) {
  const shop = directShop(t.deps);
  return await applySetup(shop, await shop.read(request.location), request);
}

async function counts(): Promise<{ locations: number; registers: number }> {
  const count = async (table: "locations" | "registers") =>
    Number(
      (await t.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return { locations: await count("locations"), registers: await count("registers") };
}

Deno.test("each value is checked as the API checks it, with a message that names the fix", () => {
  assertEquals(parseTimeZone("america/chicago"), { value: "America/Chicago" });
  assertStringIncludes(
    (parseTimeZone("America/Chicgo") as { problem: string }).problem,
    '"America/Chicgo" is not an IANA time zone',
  );
  assertEquals(parseCurrency(" eur "), { value: "EUR" });
  assert("problem" in parseCurrency("USX"), "USX is no currency");
  assertEquals(parseTaxRate("8.25%"), { value: "8.25" });
  assertEquals(parseTaxRate("0"), { value: "0.00" });
  for (const bad of ["8,25", "101", "-1", "8.255"]) assert("problem" in parseTaxRate(bad), bad);
});

Deno.test("options with several mistakes are one usage error with one line per mistake", () => {
  const error = (() => {
    try {
      requestFromOptions({
        storeName: " ",
        timezone: "Mars/Olympus",
        currency: "dollars",
        taxRate: ["8,25", "food=3", "service=5"],
        email: "not an email",
      });
    } catch (error) {
      return error;
    }
  })();
  assert(error instanceof UsageError, String(error));
  assertEquals(error.message.split("\n").map((line) => line.split(":")[0]), [
    "--store-name",
    "--timezone",
    "--currency",
    "--tax-rate",
    "--tax-rate",
    "--email",
  ]);
  assertEquals(requestFromOptions({ taxRate: ["7.5", "service=0"] }).taxRates, {
    goods: "7.50",
    service: "0.00",
  });
});

Deno.test("a first setup writes every setting, the location and its register; a re-run changes nothing", async () => {
  const shop = directShop(t.deps);
  assert(needsFirstSetup(await shop.read()), "a new shop needs its first setup");
  assertEquals(await findStoreSetupGaps(t.deps.db), ["the store's name", "a location"]);

  const first = await setUp(FIRST);
  assertEquals(first.changes.map((c) => c.what), [
    "Store name",
    "Address",
    "Time zone",
    "Tax on goods",
    "Location",
    'Register at "Main Street"',
  ]);
  const store = await findStore(t.deps.db);
  assertEquals([store.name, store.timezone, store.address?.city], [
    "Harmony Music",
    "America/Chicago",
    "Springfield",
  ]);
  const config = await getRuntimeConfig(t.deps.db);
  assertEquals(config.taxRates, { goods: "8.25", service: "0.00" });
  const location = await t.deps.db.selectFrom("locations").selectAll().executeTakeFirstOrThrow();
  assertEquals(location.address?.line1, "1 Main St", "the first location has the store's address");
  assertEquals(await findStoreSetupGaps(t.deps.db), [], "no start-up hint any more");
  const audited = await t.deps.db.selectFrom("audit_log").select("action")
    .where("action", "in", ["config.updated", "location.created"]).execute();
  assertEquals(audited.map((a) => a.action).sort(), ["config.updated", "location.created"]);

  const again = await setUp({ ...FIRST, location: "main street", register: "FRONT" });
  assertEquals(again.changes, []);
  assertEquals(await counts(), { locations: 1, registers: 1 });
  assertEquals(again.location?.name, "Main Street", "found by name, spelt as it is");
});

Deno.test("a new name renames the only location and register; the location's address follows the store's", async () => {
  const renamed = await setUp({
    location: "Downtown",
    register: "Counter",
    address: { line1: "9 Elm St" },
  });
  assertEquals(renamed.changes, [
    {
      what: "Address",
      from: "1 Main St, Springfield, IL, 62701",
      to: "9 Elm St, Springfield, IL, 62701",
    },
    { what: "Location", from: "Main Street", to: "Downtown" },
    {
      what: 'Address of location "Downtown"',
      from: "1 Main St, Springfield, IL, 62701",
      to: "9 Elm St, Springfield, IL, 62701",
    },
    { what: 'Register at "Downtown"', from: "Front", to: "Counter" },
  ]);
  assertEquals(await counts(), { locations: 1, registers: 1 });
});

Deno.test("with several locations, one not among them is refused naming them, and nothing is written", async () => {
  await createLocation(t.deps, SYSTEM_ACTOR, { name: "Harbour Road" });
  const before = await findStore(t.deps.db);
  const refused = await assertRejects(
    () => setUp({ storeName: "Renamed", location: "Elsewhere", register: "Till" }),
    UsageError,
  );
  assertStringIncludes(
    refused.message,
    '--location "Elsewhere" is none of the 2 locations ("Downtown", "Harbour Road")',
  );
  assertEquals((await findStore(t.deps.db)).name, before.name, "nothing was written");
  const register = await assertRejects(() => setUp({ register: "Till" }), UsageError);
  assertStringIncludes(register.message, "--register needs --location");
  const named = await setUp({ location: "harbour road", register: "Till" });
  assertEquals(named.changes, [{ what: 'Register at "Harbour Road"', from: null, to: "Till" }]);
  assertEquals(await counts(), { locations: 2, registers: 2 });
});
