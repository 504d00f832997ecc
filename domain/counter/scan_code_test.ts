import { assertEquals } from "../../tests/_helpers/assert.ts";
import { canonicalBarcode, readScanCode } from "./scan_code.ts";

Deno.test("UPC-A and its EAN-13 form with a leading 0 share one canonical form", () => {
  assertEquals(canonicalBarcode("036000291452"), "0036000291452");
  assertEquals(canonicalBarcode(" 0036000291452 "), "0036000291452");
  assertEquals(canonicalBarcode("4006381333931"), "4006381333931");
  assertEquals(canonicalBarcode("ABC-12"), "abc-12");
});

Deno.test("a code is trimmed and lower-cased; an empty one reads as nothing", () => {
  assertEquals(readScanCode("   "), null);
  const code = readScanCode("  GTR-Strat-01 \t")!;
  assertEquals(code.text, "gtr-strat-01");
  assertEquals(code.badCheckDigit, false);
  assertEquals(code.receiptNumber, null);
});

Deno.test("human numbers read with or without dash and zeros, in any case", () => {
  assertEquals(readScanCode("S-0001234")!.receiptNumber, 1234);
  assertEquals(readScanCode("s1234")!.receiptNumber, 1234);
  assertEquals(readScanCode("R-000123")!.ticketNumber, 123);
  assertEquals(readScanCode("l-000007")!.rentalNumber, 7);
  assertEquals(readScanCode("A-000001")!.accountNumber, 1);
  assertEquals(readScanCode("A-000000")!.accountNumber, null); // sequences start at 1
  assertEquals(readScanCode("S-12x")!.receiptNumber, null);
  assertEquals(readScanCode("S-" + "9".repeat(16))!.receiptNumber, null);
  // A prefix names one kind only.
  assertEquals(readScanCode("R-000123")!.receiptNumber, null);
});

Deno.test("a 12/13-digit numeric code with a wrong check digit is flagged", () => {
  assertEquals(readScanCode("036000291453")!.badCheckDigit, true);
  assertEquals(readScanCode("0036000291453")!.badCheckDigit, true);
  assertEquals(readScanCode("036000291452")!.badCheckDigit, false);
  assertEquals(readScanCode("12345678901")!.badCheckDigit, false); // 11 digits: not a barcode
});
