import fc from "fast-check";
import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError, InvalidReferenceError, ValidationError } from "../errors.ts";
import { computeRefund, type RefundableLine, type RefundComputation } from "./refunds.ts";
import { computeTotals, type TotalsLineInput } from "./transaction_totals.ts";

/**
 * What the database records after `refund` (refunded units and amounts per line), so a test
 * can refund in several steps. The lines start with nothing refunded.
 */
function recordRefund(
  lines: readonly RefundableLine[],
  refund: RefundComputation,
): RefundableLine[] {
  return lines.map((line) => {
    const refunded = refund.lines.find((l) => l.itemId === line.itemId);
    if (!refunded) return line;
    return {
      ...line,
      refundedQuantity: (line.refundedQuantity ?? 0) + refunded.quantity,
      refundedNetCents: (line.refundedNetCents ?? 0) + refunded.netCents,
      refundedTaxCents: (line.refundedTaxCents ?? 0) + refunded.taxCents,
    };
  });
}

const SOLD: RefundableLine[] = [
  { itemId: "a", quantity: 3, netCents: 1000, taxCents: 83 },
  { itemId: "b", quantity: 1, netCents: 500, taxCents: 41 },
];

Deno.test("computeRefund() refunds a pro-rata share of net and tax", () => {
  const refund = computeRefund(SOLD, [{ itemId: "a", quantity: 1 }]);
  // 1000 / 3 = 333.33 → 333 ; 83 / 3 = 27.67 → 28
  assertEquals(refund, {
    lines: [{ itemId: "a", quantity: 1, netCents: 333, taxCents: 28, totalCents: 361 }],
    netCents: 333,
    taxCents: 28,
    totalCents: 361,
  });
});

Deno.test("computeRefund() gives the last unit the remainder so no cent drifts", () => {
  let lines = SOLD;
  const totals = { net: 0, tax: 0 };
  for (let i = 0; i < 3; i++) {
    const refund = computeRefund(lines, [{ itemId: "a", quantity: 1 }]);
    totals.net += refund.netCents;
    totals.tax += refund.taxCents;
    lines = recordRefund(lines, refund);
  }
  assertEquals(totals, { net: 1000, tax: 83 });
  assertEquals(lines[0]?.refundedQuantity, 3);
});

Deno.test("computeRefund() refuses more than was sold, counting earlier refunds", () => {
  const error = assertThrows(
    () => computeRefund(SOLD, [{ itemId: "a", quantity: 4 }]),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "refund_exceeds_sale");
  const after = recordRefund(SOLD, computeRefund(SOLD, [{ itemId: "a", quantity: 2 }]));
  assertThrows(() => computeRefund(after, [{ itemId: "a", quantity: 2 }]), ConflictError);
  // The same item twice in one request counts both quantities.
  assertThrows(
    () => computeRefund(after, [{ itemId: "a", quantity: 1 }, { itemId: "a", quantity: 1 }]),
    ConflictError,
  );
  assertEquals(computeRefund(after, [{ itemId: "a", quantity: 1 }]).netCents, 1000 - 667);
});

Deno.test("computeRefund() names the line it refuses by what it sold", () => {
  const named = SOLD.map((line) => ({ ...line, description: "Guitar strings" }));
  const error = assertThrows(
    () => computeRefund(named, [{ itemId: "a", quantity: 4 }]),
    ConflictError,
  );
  assertEquals(error.message, 'Cannot refund 4 of "Guitar strings": 3 sold, 0 already refunded');
});

Deno.test("computeRefund() refuses unknown items, zero quantities and empty requests", () => {
  assertThrows(() => computeRefund(SOLD, [{ itemId: "zzz", quantity: 1 }]), InvalidReferenceError);
  assertThrows(() => computeRefund(SOLD, [{ itemId: "a", quantity: 0 }]), ValidationError);
  assertThrows(() => computeRefund(SOLD, []), ValidationError);
});

Deno.test("computeRefund() merges repeated items into one line in request order", () => {
  const refund = computeRefund(SOLD, [
    { itemId: "b", quantity: 1 },
    { itemId: "a", quantity: 1 },
    { itemId: "a", quantity: 2 },
  ]);
  assertEquals(refund.lines.map((l) => [l.itemId, l.quantity]), [["b", 1], ["a", 3]]);
  assertEquals(refund.netCents, 1500);
  assertEquals(refund.taxCents, 124);
});

Deno.test("computeRefund() finishes exactly even when earlier refunds were rounded differently", () => {
  const line: RefundableLine = {
    itemId: "a",
    quantity: 3,
    netCents: 1000,
    taxCents: 83,
    refundedQuantity: 1,
    refundedNetCents: 334,
    refundedTaxCents: 27,
  };
  const refund = computeRefund([line], [{ itemId: "a", quantity: 2 }]);
  assertEquals([refund.netCents, refund.taxCents], [666, 56]);
});

/** A sale of random lines plus, per line, a random partition of its quantity into refunds. */
const scenarioArb = fc.array(
  fc.record({
    quantity: fc.integer({ min: 1, max: 25 }),
    unitPriceCents: fc.integer({ min: 0, max: 100_000 }),
    taxCategory: fc.constantFrom("goods" as const, "service" as const),
    cuts: fc.array(fc.integer({ min: 1, max: 25 }), { maxLength: 8 }),
  }),
  { minLength: 1, maxLength: 6 },
).chain((lines) =>
  fc.record({
    lines: fc.constant(lines),
    discountBp: fc.integer({ min: 0, max: 10_000 }),
    rates: fc.record({
      goods: fc.integer({ min: 0, max: 2_000 }),
      service: fc.integer({ min: 0, max: 2_000 }),
    }),
    // The order in which the refund steps of all lines are interleaved.
    seed: fc.integer(),
  })
);

/** Splits `quantity` into positive parts at the given cut points. */
function partition(quantity: number, cuts: number[]): number[] {
  const points = [...new Set(cuts.filter((c) => c < quantity))].sort((a, b) => a - b);
  const parts: number[] = [];
  let previous = 0;
  for (const point of [...points, quantity]) {
    parts.push(point - previous);
    previous = point;
  }
  return parts;
}

Deno.test("refunding every unit in any partition and order returns the sale's net and tax exactly", () => {
  fc.assert(
    fc.property(scenarioArb, ({ lines, discountBp, rates, seed }) => {
      const input: TotalsLineInput[] = lines.map((l) => ({
        kind: "sale",
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        taxCategory: l.taxCategory,
        isConsumable: false,
      }));
      const totals = computeTotals({
        lines: input,
        discount: { kind: "percent", value: discountBp },
        taxRates: rates,
        taxExempt: false,
      });
      let refundable: RefundableLine[] = totals.lines.map((t, i) => ({
        itemId: `item-${i}`,
        quantity: lines[i]?.quantity ?? 0,
        netCents: t.netCents,
        taxCents: t.taxCents,
      }));
      // Queue of steps: [itemIndex, quantity], shuffled deterministically by `seed`.
      const steps = lines.flatMap((l, i) =>
        partition(l.quantity, l.cuts).map((q) => [i, q] as const)
      );
      let state = seed;
      for (let i = steps.length - 1; i > 0; i--) {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        const j = state % (i + 1);
        [steps[i], steps[j]] = [steps[j] as typeof steps[number], steps[i] as typeof steps[number]];
      }
      let refundedNet = 0;
      let refundedTax = 0;
      // Group consecutive steps into multi-line refunds of 1–3 steps (distinct items each).
      while (steps.length > 0) {
        const batch: { itemId: string; quantity: number }[] = [];
        while (steps.length > 0 && batch.length < 1 + (Math.abs(seed) % 3)) {
          const [index, quantity] = steps[0] as readonly [number, number];
          if (batch.some((b) => b.itemId === `item-${index}`)) break;
          steps.shift();
          batch.push({ itemId: `item-${index}`, quantity });
        }
        const refund = computeRefund(refundable, batch);
        for (const l of refund.lines) assert(l.netCents >= 0 && l.taxCents >= 0);
        assertEquals(refund.totalCents, refund.netCents + refund.taxCents);
        refundedNet += refund.netCents;
        refundedTax += refund.taxCents;
        refundable = recordRefund(refundable, refund);
      }
      assertEquals(refundedNet, totals.subtotalCents - totals.discountTotalCents);
      assertEquals(refundedTax, totals.taxTotalCents);
      refundable.forEach((line, i) => {
        assertEquals(line.refundedNetCents ?? 0, totals.lines[i]?.netCents);
        assertEquals(line.refundedTaxCents ?? 0, totals.lines[i]?.taxCents);
        assertEquals(line.refundedQuantity ?? 0, line.quantity);
        assertThrows(() => computeRefund(refundable, [{ itemId: line.itemId, quantity: 1 }]));
      });
    }),
  );
});

Deno.test("what a group of units refunds does not depend on how earlier units were grouped", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }),
      (quantity, netCents, cuts) => {
        const parts = partition(quantity, cuts);
        let lines: RefundableLine[] = [{ itemId: "x", quantity, netCents, taxCents: 0 }];
        let units = 0;
        let refunded = 0;
        for (const part of parts) {
          const refund = computeRefund(lines, [{ itemId: "x", quantity: part }]);
          units += part;
          refunded += refund.netCents;
          lines = recordRefund(lines, refund);
          // Cumulative refunded amount after `units` units is the same for every partition.
          const single = computeRefund(
            [{ itemId: "x", quantity, netCents, taxCents: 0 }],
            [{ itemId: "x", quantity: units }],
          );
          assertEquals(refunded, single.netCents);
        }
        assertEquals(refunded, netCents);
      },
    ),
  );
});
