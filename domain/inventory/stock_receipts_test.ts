import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { receiptTotalCost } from "./stock_receipts.ts";

Deno.test("receiptTotalCost() multiplies the unit cost by the quantity in cents", () => {
  assertEquals(receiptTotalCost(900, 3), 2700);
  assertEquals(receiptTotalCost(1, 1_000_000), 1_000_000);
  assertEquals(receiptTotalCost(1999, 0), 0);
});

Deno.test("receiptTotalCost() refuses a fractional quantity or a fractional cost", () => {
  assertThrows(() => receiptTotalCost(900, 1.5), RangeError);
  assertThrows(() => receiptTotalCost(9.5, 2), RangeError);
});
