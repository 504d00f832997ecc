import { assertEquals } from "../../tests/_helpers/assert.ts";
import { accountNameFor, formatAccountNumber } from "./naming.ts";

Deno.test("formatAccountNumber() pads to six digits and grows past a million", () => {
  assertEquals(formatAccountNumber(42), "A-000042");
  assertEquals(formatAccountNumber(999999), "A-999999");
  assertEquals(formatAccountNumber(1234567), "A-1234567");
});

Deno.test("accountNameFor() names the account after its primary contact", () => {
  assertEquals(accountNameFor("Ada", "Lovelace"), "Ada Lovelace - Account");
});
