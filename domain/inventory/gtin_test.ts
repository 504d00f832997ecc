import { assertEquals } from "../../tests/_helpers/assert.ts";
import { hasValidGtinCheckDigit } from "./gtin.ts";

Deno.test("hasValidGtinCheckDigit() checks UPC-A, EAN-13 and EAN-8 check digits", () => {
  assertEquals(hasValidGtinCheckDigit("036000291452"), true); // UPC-A
  assertEquals(hasValidGtinCheckDigit("0036000291452"), true); // its EAN-13 form
  assertEquals(hasValidGtinCheckDigit("036000291453"), false);
  assertEquals(hasValidGtinCheckDigit("4006381333931"), true);
  assertEquals(hasValidGtinCheckDigit("4006381333932"), false);
  assertEquals(hasValidGtinCheckDigit("96385074"), true); // EAN-8
  assertEquals(hasValidGtinCheckDigit("12345"), false);
  assertEquals(hasValidGtinCheckDigit("03600029145a"), false);
});
