import fc from "fast-check";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import {
  type CataloguedLine,
  discountsTogetherExceed,
  lineReductionExceeds,
  orderDiscountNeedsApproval,
  priceReductionCents,
  raisedReductions,
  reductionsNeedApproval,
} from "./price_reductions.ts";
import { needsDiscountOverride } from "./transaction_totals.ts";

const TEN_PERCENT = 1_000;

function line(
  unitPriceCents: number,
  cataloguePriceCents: number | null,
  quantity = 1,
  isConsumable = false,
): CataloguedLine {
  return { quantity, unitPriceCents, cataloguePriceCents, isConsumable };
}

Deno.test("priceReductionCents() is (catalogue − unit) × quantity below the price, else 0", () => {
  assertEquals(priceReductionCents(line(1, 10_000)), 9_999);
  assertEquals(priceReductionCents(line(900, 1_000, 3)), 300);
  assertEquals(priceReductionCents(line(1_000, 1_000)), 0);
  assertEquals(priceReductionCents(line(1_500, 1_000)), 0);
  assertEquals(priceReductionCents(line(1, null)), 0, "no product, no catalogue price");
  assertEquals(priceReductionCents(line(1, 1_000, 1, true)), 0, "consumables are not sold");
});

Deno.test("lineReductionExceeds() compares the line with itself at the catalogue price", () => {
  assertEquals(lineReductionExceeds(line(9_000, 10_000, 2), TEN_PERCENT), false); // 10 %
  assertEquals(lineReductionExceeds(line(8_999, 10_000), TEN_PERCENT), true);
  assertEquals(lineReductionExceeds(line(1, 10_000), TEN_PERCENT), true);
  assertEquals(lineReductionExceeds(line(0, 10_000), 10_000), false); // free at 100 %
});

Deno.test("discountsTogetherExceed() adds the order discount to the reductions over the catalogue subtotal", () => {
  // 6.00 off a 100.00 product, then 5 % of 94.00 = 4.70: 10.70 of 100.00.
  const lines = [line(9_400, 10_000)];
  assertEquals(discountsTogetherExceed(lines, null, TEN_PERCENT), false);
  assertEquals(discountsTogetherExceed(lines, { kind: "percent", value: 500 }, TEN_PERCENT), true);
  assertEquals(discountsTogetherExceed(lines, { kind: "amount", value: 400 }, TEN_PERCENT), false);
  // A free line (no product) and a consumable line count as they do in the subtotal.
  assertEquals(
    discountsTogetherExceed([...lines, line(10_000, null), line(500, 900, 1, true)], {
      kind: "amount",
      value: 1_400,
    }, TEN_PERCENT),
    false, // 6.00 + 14.00 of 200.00
  );
});

Deno.test("only lines priced further below their price need approval, per line or together", () => {
  const before = [line(10_000, 10_000), line(1_000, 1_000)];
  assertEquals(raisedReductions(before, before), []);
  const lowered = [line(5_000, 10_000), line(1_000, 1_000)];
  assertEquals(raisedReductions(before, lowered), [0]);
  assert(reductionsNeedApproval(lowered, [0], null, TEN_PERCENT));
  // An approved reduction stays approved while other lines change.
  const more = [...lowered, line(2_000, null)];
  assertEquals(raisedReductions(lowered, more), []);
  assertEquals(reductionsNeedApproval(more, [], null, TEN_PERCENT), false);
  // More of a reduced line raises its reduction.
  assertEquals(raisedReductions(lowered, [line(5_000, 10_000, 2), lowered[1]!]), [0]);
  // A price raised back is no raise.
  assertEquals(raisedReductions(lowered, before), []);
  // 5 % off one line passes the threshold with a 10 % order discount.
  const withDiscount = [line(10_000, 10_000), line(950, 1_000)];
  assertEquals(reductionsNeedApproval(withDiscount, [1], null, TEN_PERCENT), false);
  assert(reductionsNeedApproval(withDiscount, [1], { kind: "percent", value: 1_000 }, TEN_PERCENT));
});

Deno.test("orderDiscountNeedsApproval() is needsDiscountOverride() when no line is reduced", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ price: fc.integer({ min: 0, max: 100_000 }), q: fc.nat(20) }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.oneof(
        fc.record({
          kind: fc.constant("percent" as const),
          value: fc.integer({ min: 0, max: 10_000 }),
        }),
        fc.record({
          kind: fc.constant("amount" as const),
          value: fc.integer({ min: 0, max: 500_000 }),
        }),
      ),
      fc.integer({ min: 0, max: 10_000 }),
      (raw, discount, threshold) => {
        const lines = raw.map((r) => line(r.price, r.price, r.q + 1));
        const subtotal = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);
        const expected = discount.value > 0 && needsDiscountOverride(discount, subtotal, threshold);
        assertEquals(orderDiscountNeedsApproval(lines, discount, threshold), expected);
      },
    ),
  );
});

Deno.test("orderDiscountNeedsApproval() counts the lines' reductions, but never for no discount", () => {
  const reduced = [line(5_000, 10_000)]; // approved 50 % off
  assert(orderDiscountNeedsApproval(reduced, { kind: "percent", value: 100 }, TEN_PERCENT));
  assertEquals(
    orderDiscountNeedsApproval(reduced, { kind: "percent", value: 0 }, TEN_PERCENT),
    false,
  );
});
