import fc from "fast-check";
import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import { buildReceipt, renderReceiptText, showsChange, taxExemptionNote } from "./receipt_text.ts";
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
      "No. S-0001234",
      "Cashier: Sam Lee",
      "----------------------------------------",
      "Guitar strings, light gauge",
      "  2 x 12.99                        25.98",
      "Setup labor                        45.00",
      "----------------------------------------",
      "Subtotal                           70.98",
      "Discount                            7.10",
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
    number: 1300,
    type: "refund",
    status: "voided",
    originalTransactionId: "0193a6f0-1c2b-7d4e-8f90-000000000001",
    originalNumber: 1234,
    reason: "Wrong gauge; the customer wanted medium strings instead of the light ones",
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
  assertStringIncludes(text, "No. S-0001300\nRefund of S-0001234\n");
  assertStringIncludes(
    text,
    "Reason: Wrong gauge; the customer wanted\nmedium strings instead of the light ones\n",
  );
  assert(!text.includes("0193a6f0"), "no UUID is printed");
  assertStringIncludes(
    text,
    "A very long description of a        1.00\nvintage instrument case with extra\n",
  );
  assertStringIncludes(text, "padding and a supercalifragilist...\n");
  for (const line of text.split("\n")) assert(Array.from(line).length <= 40, line);
});

Deno.test("buildReceipt() names a refund's original and reason, and only a refund's reason", () => {
  const sale = buildReceipt({
    ...sampleReceiptInput(),
    transaction: { ...sampleReceiptInput().transaction, reason: "not a refund" },
  });
  assertEquals(
    [sale.receiptNumber, sale.originalReceiptNumber, sale.refundReason],
    ["S-0001234", null, null],
  );
  const refund = buildReceipt({
    ...sampleReceiptInput(),
    transaction: {
      ...sampleReceiptInput().transaction,
      number: 7,
      type: "refund",
      originalTransactionId: "x",
      originalNumber: 12_345_678,
      reason: "Damaged",
    },
  });
  assertEquals(
    [refund.receiptNumber, refund.originalReceiptNumber, refund.refundReason],
    ["S-0000007", "S-12345678", "Damaged"],
  );
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
      fc.option(fc.record({
        ticketNumber: fc.string({ maxLength: 50 }),
        itemDescription: fc.array(word, { maxLength: 12 }).map((w) => w.join(" ")),
        serialNumber: fc.option(fc.string({ maxLength: 100 })),
      })),
      fc.option(fc.string({ maxLength: 100 })),
      (specs, storeName, method, extra, repair, certificate) => {
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
          transaction: {
            id: "t",
            number: 1,
            type: "sale",
            status: "complete",
            at: RECEIPT_AT,
            taxExempt: certificate !== null,
            taxExemptCertificate: certificate,
          },
          repair,
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

Deno.test("a refund's receipt prints positive amounts under labels that say they go back", () => {
  const input = sampleReceiptInput();
  input.transaction = { ...input.transaction, number: 1301, type: "refund", originalNumber: 1234 };
  input.lines = [{
    description: "Setup labor",
    quantity: 1,
    unitPriceCents: 4500,
    isConsumable: false,
    amountCents: -4500,
  }, {
    description: "Guitar strings, light gauge",
    quantity: 2,
    unitPriceCents: 1299,
    isConsumable: false,
    amountCents: -2598,
  }];
  input.totals = {
    subtotalCents: -7098,
    discountTotalCents: -710,
    taxTotalCents: -527,
    totalCents: -6915,
  };
  input.payments = [{ method: "cash", amountCents: -6915, tenderedCents: -6915, changeCents: 0 }];
  const text = renderReceiptText(buildReceipt(input));
  const rows = text.split("\n").slice(text.split("\n").indexOf("No. S-0001301"));
  assertEquals(rows.slice(3), [
    "----------------------------------------",
    "Setup labor                        45.00",
    "Guitar strings, light gauge",
    "  2 x 12.99                        25.98",
    "----------------------------------------",
    "Subtotal                           70.98",
    "Discount                            7.10",
    "Tax                                 5.27",
    "TOTAL REFUNDED                     69.15",
    "----------------------------------------",
    "Cash refund                        69.15",
    "",
    "               Thank you!",
    "",
  ]);
  assert(!/-\d+\.\d\d/.test(text), text);
});

Deno.test("a refund shows no change unless some was given; a cash sale shows Change 0.00", () => {
  const sale = buildReceipt({
    ...sampleReceiptInput(),
    payments: [{ method: "cash", amountCents: 1000, tenderedCents: 1000, changeCents: 0 }],
  });
  assertEquals(showsChange(sale), true);
  const refund = { ...sale, type: "refund" as const };
  assertEquals(showsChange(refund), false);
  assert(!renderReceiptText(refund).includes("Change"));
  assertEquals(showsChange({ ...refund, change: 50 }), true);
});

Deno.test("a tax-exempt receipt names its certificate, or says exempt when none was kept", () => {
  const input = sampleReceiptInput();
  const exempt = (taxExemptCertificate: string | null) =>
    buildReceipt({
      ...input,
      transaction: { ...input.transaction, taxExempt: true, taxExemptCertificate },
    });
  assertEquals(taxExemptionNote(exempt("EX-77")), "Tax exempt, certificate EX-77");
  assertEquals(taxExemptionNote(exempt(null)), "Tax exempt");
  assertEquals(taxExemptionNote(buildReceipt(input)), null);
  // A certificate is kept only with the exemption.
  const taxed = buildReceipt({
    ...input,
    transaction: { ...input.transaction, taxExempt: false, taxExemptCertificate: "EX-77" },
  });
  assertEquals([taxed.taxExempt, taxed.taxExemptCertificate], [false, null]);
  assert(renderReceiptText(exempt("EX-77")).split("\n").includes("Tax exempt, certificate EX-77"));
});

Deno.test("a repair payment's receipt names the ticket, the instrument and its serial", () => {
  const input = sampleReceiptInput();
  const receipt = buildReceipt({
    ...input,
    transaction: { ...input.transaction, type: "repair_payment" },
    repair: { ticketNumber: "R-000042", itemDescription: "Violin 4/4", serialNumber: "VN-2231" },
  });
  const rows = renderReceiptText(receipt).split("\n");
  for (const row of ["Repair R-000042", "Item: Violin 4/4", "Serial: VN-2231"]) {
    assert(rows.includes(row), rows.join("\n"));
  }
  const noSerial = buildReceipt({
    ...input,
    repair: { ticketNumber: "R-000043", itemDescription: "Flute", serialNumber: null },
  });
  assert(!renderReceiptText(noSerial).includes("Serial"));
});
