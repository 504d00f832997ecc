/** The wire shape of a receipt (pure: no database). */
import { assertEquals } from "../_helpers/assert.ts";
import { sampleReceiptInput } from "../_helpers/pos_receipt_fixtures.ts";
import { receiptToJson } from "../../app/pos/receipt_json.ts";
import { buildReceipt } from "../../domain/pos/receipt_text.ts";

Deno.test("buildReceipt() and receiptToJson() leave consumables out", () => {
  const json = receiptToJson(buildReceipt(sampleReceiptInput()));
  assertEquals(json.lines.map((l) => l.description), [
    "Guitar strings, light gauge",
    "Setup labor",
  ]);
  assertEquals(json.lines[0], {
    description: "Guitar strings, light gauge",
    quantity: 2,
    unitPrice: "12.99",
    amount: "25.98",
  });
  assertEquals([json.total, json.amountPaid, json.balanceDue, json.change], [
    "69.15",
    "69.15",
    "0.00",
    "0.85",
  ]);
  assertEquals(json.localTime, "2026-11-21 09:04");
  assertEquals(json.transactionId, "0193a6f0-1c2b-7d4e-8f90-123456789abc");
  assertEquals(
    [json.receiptNumber, json.originalReceiptNumber, json.refundReason],
    ["S-0001234", null, null],
  );
});
