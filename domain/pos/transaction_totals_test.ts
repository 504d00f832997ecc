import fc from "fast-check";
import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { sumCents } from "../money.ts";
import {
  computeTotals,
  defaultTaxCategory,
  discountAmount,
  needsDiscountOverride,
  type OrderDiscount,
  parseDiscount,
  parseTaxRates,
  PAYMENT_METHODS,
  preparePayment,
  type TotalsLineInput,
} from "./transaction_totals.ts";

const NO_TAX = { goods: 0, service: 0 };

function line(
  unitPriceCents: number,
  quantity = 1,
  extra: Partial<TotalsLineInput> = {},
): TotalsLineInput {
  return {
    kind: "sale",
    quantity,
    unitPriceCents,
    taxCategory: "goods",
    isConsumable: false,
    ...extra,
  };
}

const lineArb: fc.Arbitrary<TotalsLineInput> = fc.record({
  kind: fc.constantFrom("sale" as const, "labor" as const, "part" as const),
  quantity: fc.integer({ min: 1, max: 50 }),
  unitPriceCents: fc.integer({ min: 0, max: 500_000 }),
  taxCategory: fc.constantFrom("goods" as const, "service" as const),
  isConsumable: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
});

const discountArb: fc.Arbitrary<OrderDiscount | null> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 0, max: 10_000 }) }),
  fc.record({
    kind: fc.constant("amount" as const),
    value: fc.integer({ min: 0, max: 5_000_000 }),
  }),
);

const ratesArb = fc.record({
  goods: fc.integer({ min: 0, max: 2_500 }),
  service: fc.integer({ min: 0, max: 2_500 }),
});

Deno.test("computeTotals() totals a plain three-line sale with tax per category", () => {
  const totals = computeTotals({
    lines: [
      line(1999, 2), // 39.98 goods
      line(5000, 1, { kind: "labor", taxCategory: "service" }), // 50.00 service
      line(250, 3, { kind: "part" }), // 7.50 goods
    ],
    taxRates: parseTaxRates({ goods: "8.25", service: "5.00" }),
    taxExempt: false,
  });
  assertEquals(totals.subtotalCents, 9748);
  assertEquals(totals.discountTotalCents, 0);
  // goods: 47.48 × 8.25 % = 3.9171 → 3.92 ; service: 50.00 × 5 % = 2.50
  assertEquals(totals.taxTotalCents, 392 + 250);
  assertEquals(totals.totalCents, 9748 + 642);
  assertEquals(totals.lines.map((l) => l.taxCents), [330, 250, 62]);
  assertEquals(totals.lines.map((l) => l.netCents), [3998, 5000, 750]);
});

Deno.test("computeTotals() spreads a percent discount over the lines before tax", () => {
  const totals = computeTotals({
    lines: [line(1000), line(2000), line(3000)],
    discount: { kind: "percent", value: 1000 },
    taxRates: { goods: 1000, service: 0 },
    taxExempt: false,
  });
  assertEquals(totals.discountTotalCents, 600);
  assertEquals(totals.lines.map((l) => l.discountCents), [100, 200, 300]);
  assertEquals(totals.lines.map((l) => l.netCents), [900, 1800, 2700]);
  assertEquals(totals.taxTotalCents, 540);
  assertEquals(totals.totalCents, 6000 - 600 + 540);
});

Deno.test("computeTotals() gives the cents left by an amount discount to the largest remainders", () => {
  const totals = computeTotals({
    lines: [line(100), line(100), line(100)],
    discount: { kind: "amount", value: 100 },
    taxRates: NO_TAX,
    taxExempt: false,
  });
  assertEquals(totals.lines.map((l) => l.discountCents), [34, 33, 33]);
  assertEquals(totals.totalCents, 200);
});

Deno.test("computeTotals() caps an amount discount at the subtotal", () => {
  const totals = computeTotals({
    lines: [line(500)],
    discount: { kind: "amount", value: 900 },
    taxRates: { goods: 800, service: 0 },
    taxExempt: false,
  });
  assertEquals(totals.discountTotalCents, 500);
  assertEquals(totals.totalCents, 0);
});

Deno.test("computeTotals() charges no tax to a tax-exempt account", () => {
  const totals = computeTotals({
    lines: [line(1000), line(1000, 1, { taxCategory: "service" })],
    taxRates: { goods: 800, service: 600 },
    taxExempt: true,
  });
  assertEquals(totals.taxTotalCents, 0);
  assertEquals(totals.totalCents, 2000);
});

Deno.test("computeTotals() leaves consumable lines out of every customer total", () => {
  const totals = computeTotals({
    lines: [line(1000), line(700, 2, { kind: "part", isConsumable: true })],
    discount: { kind: "percent", value: 5000 },
    taxRates: { goods: 1000, service: 0 },
    taxExempt: false,
  });
  assertEquals(totals.subtotalCents, 1000);
  assertEquals(totals.discountTotalCents, 500);
  assertEquals(totals.taxTotalCents, 50);
  assertEquals(totals.totalCents, 550);
  assertEquals(totals.internalCostCents, 1400);
  assertEquals(totals.lines[1], {
    grossCents: 1400,
    discountCents: 0,
    netCents: 1400,
    taxCents: 0,
    totalCents: 1400,
    customerFacing: false,
  });
});

Deno.test("computeTotals() refuses a zero quantity, a negative price and a discount over 100 %", () => {
  assertThrows(
    () => computeTotals({ lines: [line(100, 0)], taxRates: NO_TAX, taxExempt: false }),
    ValidationError,
  );
  assertThrows(
    () => computeTotals({ lines: [line(-1)], taxRates: NO_TAX, taxExempt: false }),
    ValidationError,
  );
  assertThrows(
    () =>
      computeTotals({
        lines: [line(100)],
        discount: { kind: "percent", value: 10_001 },
        taxRates: NO_TAX,
        taxExempt: false,
      }),
    ValidationError,
  );
});

Deno.test("computeTotals() reconciles: Σ(net + tax) of customer lines = total, and the parts sum", () => {
  fc.assert(
    fc.property(
      fc.array(lineArb, { minLength: 1, maxLength: 15 }),
      discountArb,
      ratesArb,
      fc.boolean(),
      (lines, discount, taxRates, taxExempt) => {
        const t = computeTotals({ lines, discount, taxRates, taxExempt });
        const customer = t.lines.filter((l) => l.customerFacing);
        const sum = (f: (l: (typeof customer)[number]) => number) =>
          customer.reduce((a, l) => a + f(l), 0);
        assertEquals(sum((l) => l.netCents + l.taxCents), t.totalCents);
        assertEquals(sum((l) => l.grossCents), t.subtotalCents);
        assertEquals(sum((l) => l.discountCents), t.discountTotalCents);
        assertEquals(sum((l) => l.taxCents), t.taxTotalCents);
        assertEquals(t.totalCents, t.subtotalCents - t.discountTotalCents + t.taxTotalCents);
        assertEquals(t.discountTotalCents, discountAmount(discount, t.subtotalCents));
        assert(t.discountTotalCents <= t.subtotalCents);
        for (const l of t.lines) {
          assert(l.discountCents >= 0 && l.discountCents <= l.grossCents);
          assert(l.netCents >= 0 && l.taxCents >= 0);
          assertEquals(l.netCents + l.taxCents, l.totalCents);
          if (!l.customerFacing || taxExempt) assertEquals(l.taxCents, 0);
        }
        // Tax is rounded once per category.
        for (const category of ["goods", "service"] as const) {
          const indexes = lines.flatMap((x, i) =>
            !x.isConsumable && x.taxCategory === category ? [i] : []
          );
          const net = indexes.reduce((a, i) => a + (t.lines[i]?.netCents ?? 0), 0);
          const tax = indexes.reduce((a, i) => a + (t.lines[i]?.taxCents ?? 0), 0);
          const expected = taxExempt ? 0 : Math.round((net * taxRates[category]) / 10_000);
          assert(Math.abs(tax - expected) <= 1); // float reference, within a cent
        }
      },
    ),
  );
});

Deno.test("defaultTaxCategory() makes labor a service and everything else goods", () => {
  assertEquals(defaultTaxCategory("labor"), "service");
  assertEquals(defaultTaxCategory("part"), "goods");
  assertEquals(defaultTaxCategory("sale"), "goods");
});

Deno.test("parseDiscount() reads wire strings and refuses over 100 % or more than two decimals", () => {
  assertEquals(parseDiscount({ kind: "percent", value: "12.50" }), {
    kind: "percent",
    value: 1250,
  });
  assertEquals(parseDiscount({ kind: "amount", value: "5.00" }), { kind: "amount", value: 500 });
  assertThrows(() => parseDiscount({ kind: "percent", value: "100.01" }), ValidationError);
  assertThrows(() => parseDiscount({ kind: "amount", value: "-1.00" }), ValidationError);
  assertThrows(() => parseDiscount({ kind: "amount", value: "1.001" }), ValidationError);
});

Deno.test("needsDiscountOverride() compares the discount's share with the threshold, strictly", () => {
  const threshold = 1000; // 10.00 %
  assertEquals(needsDiscountOverride({ kind: "percent", value: 1000 }, 5000, threshold), false);
  assertEquals(needsDiscountOverride({ kind: "percent", value: 1001 }, 5000, threshold), true);
  assertEquals(needsDiscountOverride({ kind: "amount", value: 500 }, 5000, threshold), false);
  assertEquals(needsDiscountOverride({ kind: "amount", value: 501 }, 5000, threshold), true);
  assertEquals(needsDiscountOverride({ kind: "amount", value: 1 }, 0, threshold), true);
  assertEquals(needsDiscountOverride({ kind: "amount", value: 0 }, 0, threshold), false);
});

Deno.test("preparePayment() gives change on cash and none on other methods", () => {
  assertEquals(preparePayment({ method: "cash", amountCents: 1250, tenderedCents: 2000 }, 1250), {
    method: "cash",
    amountCents: 1250,
    tenderedCents: 2000,
    changeCents: 750,
  });
  assertEquals(preparePayment({ method: "cash", amountCents: 500 }, 1250), {
    method: "cash",
    amountCents: 500,
    tenderedCents: 500,
    changeCents: 0,
  });
  assertEquals(preparePayment({ method: "card", amountCents: 500, tenderedCents: 900 }, 500), {
    method: "card",
    amountCents: 500,
    tenderedCents: 500,
    changeCents: 0,
  });
});

Deno.test("preparePayment() refuses overpayment, short cash and non-positive amounts", () => {
  const over = assertThrows(
    () => preparePayment({ method: "card", amountCents: 1001 }, 1000),
    ConflictError,
  ) as ConflictError;
  assertEquals(over.code, "overpayment");
  assertThrows(() => preparePayment({ method: "card", amountCents: 1 }, 0), ConflictError);
  assertThrows(
    () => preparePayment({ method: "cash", amountCents: 1000, tenderedCents: 999 }, 1000),
    ValidationError,
  );
  assertThrows(() => preparePayment({ method: "cash", amountCents: 0 }, 1000), ValidationError);
  assertThrows(() => preparePayment({ method: "cash", amountCents: -5 }, 1000), ValidationError);
});

Deno.test("paying balanceDue in any split of tenders leaves exactly 0 due", () => {
  fc.assert(
    fc.property(
      fc.array(lineArb, { minLength: 1, maxLength: 8 }),
      discountArb,
      ratesArb,
      fc.array(
        fc.record({
          method: fc.constantFrom(...PAYMENT_METHODS),
          fraction: fc.integer({ min: 1, max: 100 }),
          extraTendered: fc.integer({ min: 0, max: 10_000 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      (lines, discount, taxRates, splits) => {
        const { totalCents } = computeTotals({ lines, discount, taxRates, taxExempt: false });
        const payments: { amountCents: number; tenderedCents: number; changeCents: number }[] = [];
        for (const [i, split] of splits.entries()) {
          const balanceDueCents = totalCents - sumCents(payments.map((p) => p.amountCents));
          if (balanceDueCents === 0) break;
          const last = i === splits.length - 1;
          const amount = last
            ? balanceDueCents
            : Math.max(1, Math.floor((balanceDueCents * split.fraction) / 100));
          const payment = preparePayment({
            method: split.method,
            amountCents: amount,
            tenderedCents: amount + split.extraTendered,
          }, balanceDueCents);
          if (payment.method === "cash") {
            assertEquals(payment.tenderedCents - payment.changeCents, payment.amountCents);
          } else {
            assertEquals(payment.changeCents, 0);
          }
          payments.push(payment);
        }
        const amountPaidCents = sumCents(payments.map((p) => p.amountCents));
        assertEquals(amountPaidCents, totalCents);
        // Anything more is an overpayment.
        assertThrows(
          () => preparePayment({ method: "card", amountCents: 1 }, totalCents - amountPaidCents),
          ConflictError,
        );
      },
    ),
  );
});
