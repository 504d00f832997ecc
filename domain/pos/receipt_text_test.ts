import fc from "fast-check";
import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import { buildReceipt, renderReceiptText, wrapText } from "./receipt_text.ts";
import { RECEIPT_AT, sampleReceiptInput } from "../../tests/_helpers/pos_receipt_fixtures.ts";
import { computeTotals, PAYMENT_METHODS, preparePayment } from "./transaction_totals.ts";

Deno.test("renderReceiptText() prints a 40-column receipt with totals, payments and change", () => {
  const text = renderReceiptText(buildReceipt(sampleReceiptInput()));
  assertEquals(
    text,
    [
      "         Harmony Music & Repair",
      "               12 Main St",
      "         Springfield, IL 62701",
      "             (217) 555-0100",
      "",
      "                  SALE",
      "2026-11-21 09:04",
      "No. 0193a6f0-1c2b-7d4e-8f90-123456789abc",
      "Cashier: Sam Lee",
      "----------------------------------------",
      "Guitar strings, light gauge",
      "  2 x 12.99                        25.98",
      "Setup labor                        45.00",
      "----------------------------------------",
      "Subtotal                           70.98",
      "Discount                           -7.10",
      "Tax                                 5.27",
      "TOTAL                              69.15",
      "----------------------------------------",
      "Card                               40.00",
      "  Ref VISA 4242",
      "Cash                               29.15",
      "  Tendered                         30.00",
      "Change                              0.85",
      "",
      "               Thank you!",
      "",
    ].join("\n"),
  );
});

Deno.test("renderReceiptText() wraps long descriptions and marks refunds and voids", () => {
  const input = sampleReceiptInput();
  input.transaction = {
    ...input.transaction,
    type: "refund",
    status: "voided",
    originalTransactionId: "orig-1",
  };
  input.lines = [{
    description: "A very long description of a vintage instrument case with extra padding and a " +
      "supercalifragilisticexpialidociousandthensomemorecharacters word",
    quantity: 1,
    unitPriceCents: 100,
    isConsumable: false,
    amountCents: -100,
  }];
  const text = renderReceiptText(buildReceipt(input));
  assertStringIncludes(text, "REFUND");
  assertStringIncludes(text, "*** VOIDED ***");
  assertStringIncludes(text, "Refund of orig-1");
  assertStringIncludes(
    text,
    "A very long description of a       -1.00\nvintage instrument case with extra\n",
  );
  assertStringIncludes(text, "padding and a supercalifragilis...\n");
  for (const line of text.split("\n")) assert(Array.from(line).length <= 40, line);
});

Deno.test("wrapText() breaks at words, cuts over-long words and truncates with ...", () => {
  assertEquals(wrapText("one two three four", 9), ["one two", "three", "four"]);
  assertEquals(wrapText("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
  assertEquals(wrapText("one two three four", 9, 2), ["one two", "three..."]);
  assertEquals(wrapText("  tabs\tand\nnewlines ", 40), ["tabs and newlines"]);
  assertEquals(wrapText("", 10), []);
});

Deno.test("every receipt row fits 40 columns and no consumable is ever printed", () => {
  const word = fc.string({ minLength: 1, maxLength: 50, unit: "grapheme-ascii" });
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          words: fc.array(word, { maxLength: 12 }),
          quantity: fc.integer({ min: 1, max: 999 }),
          unitPriceCents: fc.integer({ min: 0, max: 99_999_999 }),
          isConsumable: fc.boolean(),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      fc.string({ maxLength: 80 }),
      fc.constantFrom(...PAYMENT_METHODS),
      fc.integer({ min: 0, max: 100_000 }),
      (specs, storeName, method, extra) => {
        const lines = specs.map((s, i) => ({
          description: s.isConsumable ? `CONSUMABLE${i}` : s.words.join(" "),
          quantity: s.quantity,
          unitPriceCents: s.unitPriceCents,
          isConsumable: s.isConsumable,
          kind: "sale" as const,
          taxCategory: "goods" as const,
        }));
        const totals = computeTotals({
          lines,
          discount: { kind: "percent", value: 500 },
          taxRates: { goods: 825, service: 0 },
          taxExempt: false,
        });
        const payments = totals.totalCents > 0
          ? [preparePayment({
            method,
            amountCents: totals.totalCents,
            tenderedCents: totals.totalCents + extra,
          }, totals.totalCents)]
          : [];
        const receipt = buildReceipt({
          store: { name: storeName },
          transaction: { id: "t", type: "sale", status: "complete", at: RECEIPT_AT },
          timeZone: "UTC",
          lines,
          totals,
          payments,
        });
        const text = renderReceiptText(receipt);
        for (const row of text.split("\n")) {
          assert(Array.from(row).length <= 40, JSON.stringify(row));
        }
        assert(!text.includes("CONSUMABLE"));
        assertEquals(receipt.lines.length, lines.filter((l) => !l.isConsumable).length);
        assertEquals(receipt.balanceDue, 0);
      },
    ),
    { numRuns: 200 },
  );
});
