import { assertEquals } from "../../tests/_helpers/assert.ts";
import { isUnitedStates, normalizeUsState, US_STATES } from "./us_states.ts";

Deno.test("normalizeUsState() accepts codes in any case", () => {
  assertEquals(normalizeUsState("NY"), "NY");
  assertEquals(normalizeUsState("ny"), "NY");
  assertEquals(normalizeUsState(" tx "), "TX");
});

Deno.test("normalizeUsState() accepts full names in any case and spacing", () => {
  assertEquals(normalizeUsState("new york"), "NY");
  assertEquals(normalizeUsState("NEW YORK"), "NY");
  assertEquals(normalizeUsState("  North   Carolina "), "NC");
  assertEquals(normalizeUsState("west virginia"), "WV");
  assertEquals(normalizeUsState("Washington"), "WA");
});

Deno.test("normalizeUsState() knows the District of Columbia and the territories", () => {
  assertEquals(normalizeUsState("District of Columbia"), "DC");
  assertEquals(normalizeUsState("d.c."), "DC");
  assertEquals(normalizeUsState("Washington, D.C.".replace(",", "")), "DC");
  assertEquals(normalizeUsState("puerto rico"), "PR");
  assertEquals(normalizeUsState("Guam"), "GU");
  assertEquals(normalizeUsState("american samoa"), "AS");
  assertEquals(normalizeUsState("U.S. Virgin Islands"), "VI");
  assertEquals(normalizeUsState("virgin islands"), "VI");
  assertEquals(normalizeUsState("Northern Mariana Islands"), "MP");
  assertEquals(normalizeUsState("ae"), "AE");
});

Deno.test("normalizeUsState() refuses what is not a US state", () => {
  assertEquals(normalizeUsState("Narnia"), undefined);
  assertEquals(normalizeUsState("XX"), undefined);
  assertEquals(normalizeUsState(""), undefined);
  assertEquals(normalizeUsState("N"), undefined);
  assertEquals(normalizeUsState("New"), undefined);
});

Deno.test("US_STATES lists 50 states, DC, 5 territories, 3 associated states and 3 military codes", () => {
  assertEquals(Object.keys(US_STATES).length, 62);
  for (const [code, name] of Object.entries(US_STATES)) {
    assertEquals(normalizeUsState(code), code);
    assertEquals(normalizeUsState(name), code);
    assertEquals(normalizeUsState(name.toUpperCase()), code);
  }
});

Deno.test("isUnitedStates() treats a missing country and US spellings as the US", () => {
  assertEquals(isUnitedStates(undefined), true);
  assertEquals(isUnitedStates(null), true);
  assertEquals(isUnitedStates("USA"), true);
  assertEquals(isUnitedStates("United States"), true);
  assertEquals(isUnitedStates("u.s."), true);
  assertEquals(isUnitedStates("Canada"), false);
});
