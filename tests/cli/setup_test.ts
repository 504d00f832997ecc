/**
 * `ops setup` as a shop owner runs it (child processes on a prepared data directory of their
 * own): without a terminal a first setup must name every setting (one line per missing or
 * wrong option, exit 2, nothing written), then sets the shop up and says what it changed; run
 * again it changes nothing. On a terminal it asks, with the current values as defaults, asks
 * again after a wrong answer, and Ctrl-C stops it with exit 130 before anything is saved.
 * (Through the running server: tests/cli/server_test.ts; its rules: setup_apply_test.ts.)
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { findStore } from "../../app/platform/store_repo.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import {
  HAS_SCRIPT,
  ops,
  opsOnTerminal,
  type OpsPlace,
  preparedPlace,
  withDataDir,
} from "./_ops.ts";

let place: OpsPlace;
let terminalPlace: OpsPlace;

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
  terminalPlace = await preparedPlace();
});
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
  await removeDir(terminalPlace.dataDir);
});

/** The store's name and time zone, the tax rates and the locations' and registers' names. */
function shopOf(dataDir: string) {
  return withDataDir(dataDir, async (deps) => {
    const store = await findStore(deps.db);
    const config = await getRuntimeConfig(deps.db);
    const names = async (table: "locations" | "registers") =>
      (await deps.db.selectFrom(table).select("name").orderBy("name").execute()).map((r) => r.name);
    return {
      name: store.name,
      timezone: store.timezone,
      address: store.address,
      currency: config.currency,
      taxRates: config.taxRates,
      locations: await names("locations"),
      registers: await names("registers"),
    };
  });
}

const FULL = [
  "setup",
  "--store-name",
  "Harmony Music",
  "--timezone",
  "America/Chicago",
  "--currency",
  "USD",
  "--tax-rate",
  "8.25",
  "--location",
  "Main Street",
  "--register",
  "Front",
];

embeddedRunTest(
  "without a terminal, a first setup names every setting: one line per missing or wrong option, nothing written",
  async () => {
    const before = await shopOf(place.dataDir);
    const partial = await ops(place, ["setup", "--store-name", "Harmony Music"]);
    assertEquals(partial.code, 2, partial.stderr);
    const lines = partial.stderr.trim().split("\n");
    assertStringIncludes(lines[0]!, "error: The shop is not set up yet");
    assertEquals(lines.slice(1).map((l) => /^error: (--[a-z-]+) is missing/.exec(l)?.[1]), [
      "--timezone",
      "--currency",
      "--tax-rate",
      "--location",
      "--register",
    ]);
    assert(lines.at(-1)!.endsWith("(run `ops setup --help`)"), lines.at(-1));

    const wrong = await ops(place, [
      ...FULL,
      "--timezone",
      "America/Chicgo",
      "--currency",
      "USX",
      "--tax-rate",
      "8,25",
    ]);
    assertEquals(wrong.code, 2, wrong.stderr);
    const mistakes = wrong.stderr.trim().split("\n");
    assertEquals(mistakes.length, 3, wrong.stderr);
    assertMatch(mistakes[0]!, /^error: --timezone: "America\/Chicgo" is not an IANA time zone/);
    assertMatch(mistakes[1]!, /^error: --currency: "USX" is not an ISO 4217 currency code/);
    assertMatch(mistakes[2]!, /^error: --tax-rate: "8,25" is not a tax rate/);
    // Whether an address is complete depends on the one the store has: checked once read.
    const address = await ops(place, [...FULL, "--city", "Springfield"]);
    assertEquals(address.code, 2, address.stderr);
    assertMatch(
      address.stderr,
      /^error: An address needs --address-line1, --state, --postal-code as well \(run/,
    );
    assertEquals(await shopOf(place.dataDir), before, "nothing was written");
  },
);

embeddedRunTest(
  "a first setup with every option sets the shop up and says what changed; run again it changes nothing",
  async () => {
    const first = await ops(place, FULL);
    assertEquals(first.code, 0, first.stderr);
    assertEquals(
      first.stdout,
      "Store name: My Shop → Harmony Music\n" +
        "Time zone: America/New_York → America/Chicago\n" +
        "Tax on goods: 0.00 % → 8.25 %\n" +
        "Tax on services: 0.00 % → 8.25 %\n" +
        "Location: none → Main Street\n" +
        'Register at "Main Street": none → Front\n' +
        'Set up: "Harmony Music" (America/Chicago, USD, tax 8.25 % on goods and 8.25 % on ' +
        'services), location "Main Street", register "Front"\n',
    );
    const again = await ops(place, FULL);
    assertEquals(again.code, 0, again.stderr);
    assertMatch(again.stdout, /^Nothing to change: "Harmony Music" \(America\/Chicago, /);
    const partial = await ops(place, ["setup", "--tax-rate", "service=0", "--format", "csv"]);
    assertEquals(partial.code, 0, partial.stderr);
    assertEquals(partial.stdout, "what,from,to\r\nTax on services,8.25 %,0.00 %\r\n");
    assertEquals(await shopOf(place.dataDir), {
      name: "Harmony Music",
      timezone: "America/Chicago",
      address: null,
      currency: "USD",
      taxRates: { goods: "8.25", service: "0.00" },
      locations: ["Main Street"],
      registers: ["Front"],
    });
  },
);

const onTerminal = { ignore: !HAS_SCRIPT, sanitizeResources: false, sanitizeOps: false };

embeddedRunTest({
  name:
    "on a terminal it asks with defaults and asks again after a wrong answer; Ctrl-C stops it (130) with nothing saved",
  ...onTerminal,
  fn: async () => {
    const interrupted = await opsOnTerminal(terminalPlace, ["setup"], {
      keys: [
        { after: "Store name (on receipts) [My Shop]: ", type: "Never Saved\r" },
        { after: "Street address", type: "\x03" },
      ],
    });
    assertEquals(interrupted.code, 130, interrupted.output);
    assertStringIncludes(interrupted.output, "error: Interrupted: nothing was changed");
    assertEquals((await shopOf(terminalPlace.dataDir)).name, "My Shop");

    const asked = await opsOnTerminal(terminalPlace, ["setup"], {
      // The machine's time zone is the first suggestion of a new shop's.
      env: { TZ: "Europe/Berlin" },
      keys: [
        { after: "Store name (on receipts) [My Shop]: ", type: "Harmony Music\r" },
        { after: "Street address (- for none) [-]: ", type: "1 Main St\r" },
        { after: "Address line 2", type: "\r" },
        { after: "City: ", type: "Springfield\r" },
        { after: "State or region: ", type: "IL\r" },
        { after: "Postal code: ", type: "62701\r" },
        { after: "Country", type: "\r" },
        { after: "Phone", type: "\r" },
        { after: "Email", type: "shop@example.test\r" },
        { after: "Time zone (IANA, e.g. America/Chicago) [Europe/Berlin]: ", type: "Mars/Base\r" },
        { after: "is not an IANA time zone", type: "" },
        { after: "Time zone", type: "America/Chicago\r" },
        { after: "Currency (ISO 4217, e.g. USD) [USD]: ", type: "\r" },
        { after: "Sales tax on goods, percent [0.00]: ", type: "7\r" },
        { after: "Tax on services (labor, lessons), percent [0.00]: ", type: "\r" },
        { after: "Location (where you sell) [Harmony Music]: ", type: "Main Street\r" },
        { after: "Register at Main Street [Register 1]: ", type: "\r" },
      ],
    });
    assertEquals(asked.code, 0, asked.output);
    assertStringIncludes(asked.output, '"Mars/Base" is not an IANA time zone');
    assertStringIncludes(asked.output, "Location: none → Main Street");
    assertStringIncludes(asked.output, 'Register at "Main Street": none → Register 1');
    assertEquals(await shopOf(terminalPlace.dataDir), {
      name: "Harmony Music",
      timezone: "America/Chicago",
      address: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
      currency: "USD",
      taxRates: { goods: "7.00", service: "0.00" },
      locations: ["Main Street"],
      registers: ["Register 1"],
    });

    // Again: every answer defaults to what is set now, so Enter all the way changes nothing.
    const enter = { after: ": ", type: "\r" };
    const again = await opsOnTerminal(terminalPlace, ["setup"], {
      keys: [
        { after: "Store name (on receipts) [Harmony Music]: ", type: "\r" },
        ...Array.from({ length: 14 }, () => enter),
      ],
    });
    assertEquals(again.code, 0, again.output);
    assertStringIncludes(again.output, "Time zone (IANA, e.g. America/Chicago) [America/Chicago]");
    assertStringIncludes(again.output, "Register at Main Street [Register 1]");
    assertMatch(again.output, /Nothing to change: "Harmony Music"/);
  },
});
