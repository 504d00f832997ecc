import fc from "fast-check";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import {
  type CataloguedLine,
  discountShare,
  discountsTogetherExceed,
  type LineChange,
  lineChangeNeedsApproval,
  lineReductionExceeds,
  orderDiscountNeedsApproval,
  priceReductionCents,
  raisedReductions,
  shareAbove,
  shareBasisPointsRoundedUp,
  shareNeedsApproval,
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

/** The change from `before` to `after` (same lines at the same indexes, new ones at the end). */
function change(
  before: CataloguedLine[],
  after: CataloguedLine[],
  orderDiscount: LineChange["orderDiscount"] = null,
  approved: LineChange["approved"] = null,
): LineChange {
  return { before, after, raised: raisedReductions(before, after), orderDiscount, approved };
}

Deno.test("only lines priced further below their price need approval, per line or together", () => {
  const before = [line(10_000, 10_000), line(1_000, 1_000)];
  assertEquals(raisedReductions(before, before), []);
  const lowered = [line(5_000, 10_000), line(1_000, 1_000)];
  assertEquals(raisedReductions(before, lowered), [0]);
  assert(lineChangeNeedsApproval(change(before, lowered), TEN_PERCENT));
  // An approved reduction stays approved while other lines change and its share does not
  // grow beyond the one approved.
  const approved = discountShare(lowered, null);
  const more = [...lowered, line(2_000, null)];
  assertEquals(raisedReductions(lowered, more), []);
  assertEquals(lineChangeNeedsApproval(change(lowered, more, null, approved), TEN_PERCENT), false);
  assertEquals(lineChangeNeedsApproval(change(more, lowered, null, approved), TEN_PERCENT), false);
  // More of a reduced line raises its reduction.
  assertEquals(raisedReductions(lowered, [line(5_000, 10_000, 2), lowered[1]!]), [0]);
  // A price raised back is no raise.
  assertEquals(raisedReductions(lowered, before), []);
  // 5 % off one line passes the threshold with a 10 % order discount.
  const withDiscount = [line(10_000, 10_000), line(950, 1_000)];
  const atPrice = [line(10_000, 10_000), line(1_000, 1_000)];
  assertEquals(lineChangeNeedsApproval(change(atPrice, withDiscount), TEN_PERCENT), false);
  assert(
    lineChangeNeedsApproval(
      change(atPrice, withDiscount, { kind: "percent", value: 1_000 }),
      TEN_PERCENT,
    ),
  );
});

Deno.test("lineChangeNeedsApproval() judges an amount discount's share whenever the subtotal changes", () => {
  const guitar = line(10_000, 10_000);
  const amplifier = line(90_000, 90_000);
  const hundredOff = { kind: "amount" as const, value: 10_000 };
  // $100 off $1,000 is 10 %: removing the amplifier makes it 100 %.
  assertEquals(shareBasisPointsRoundedUp(discountShare([guitar, amplifier], hundredOff)), 1_000);
  assert(lineChangeNeedsApproval(change([guitar, amplifier], [guitar], hundredOff), TEN_PERCENT));
  // So does lowering a quantity (10 guitars to 1).
  assert(
    lineChangeNeedsApproval(change([line(10_000, 10_000, 10)], [guitar], hundredOff), TEN_PERCENT),
  );
  // Adding a line lowers the share: no approval.
  assertEquals(
    lineChangeNeedsApproval(
      change([guitar, amplifier], [guitar, amplifier, guitar], hundredOff),
      TEN_PERCENT,
    ),
    false,
  );
  // A percent discount keeps its share.
  const tenPercent = { kind: "percent" as const, value: 1_000 };
  assertEquals(
    lineChangeNeedsApproval(change([guitar, amplifier], [guitar], tenPercent), TEN_PERCENT),
    false,
  );
  // Within the share a manager approved: no approval; beyond it: one.
  const approved = discountShare([guitar], hundredOff);
  assertEquals(
    lineChangeNeedsApproval(
      change([guitar, amplifier], [guitar], hundredOff, approved),
      TEN_PERCENT,
    ),
    false,
  );
  const half = discountShare([line(10_000, 10_000, 2)], hundredOff);
  assert(
    lineChangeNeedsApproval(change([guitar, amplifier], [guitar], hundredOff, half), TEN_PERCENT),
  );
  // A price reduction counts with it: $5 off the guitar and $45 off the order.
  const reduced = [line(9_500, 10_000), amplifier];
  const fortyFive = { kind: "amount" as const, value: 4_500 };
  assertEquals(shareBasisPointsRoundedUp(discountShare(reduced, fortyFive)), 500);
  assert(lineChangeNeedsApproval(change(reduced, [reduced[0]!], fortyFive), TEN_PERCENT));
});

Deno.test("shareNeedsApproval() asks beyond the threshold and beyond the approved share only", () => {
  const third = { part: 1n, whole: 3n };
  const half = { part: 1n, whole: 2n };
  assert(shareAbove(half, third));
  assertEquals(shareAbove(third, half), false);
  assertEquals(shareAbove(third, { part: 2n, whole: 6n }), false, "equal shares");
  assertEquals(shareBasisPointsRoundedUp(third), 3_334);
  assertEquals(shareBasisPointsRoundedUp(half), 5_000);
  assert(shareNeedsApproval(third, TEN_PERCENT, null));
  assertEquals(shareNeedsApproval(third, TEN_PERCENT, half), false);
  assertEquals(shareNeedsApproval(third, TEN_PERCENT, { part: 2n, whole: 6n }), false);
  assert(shareNeedsApproval(half, TEN_PERCENT, third));
  assertEquals(shareNeedsApproval(half, 5_000, null), false, "exactly at the threshold");
  assertEquals(discountShare([], { kind: "amount", value: 500 }), { part: 0n, whole: 10_000n });
});

Deno.test("discountShare() of lines at their price is the order discount's own share", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ price: fc.integer({ min: 1, max: 100_000 }), q: fc.nat(20) }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.integer({ min: 0, max: 5_000_000 }),
      fc.integer({ min: 0, max: 10_000 }),
      (raw, amount, threshold) => {
        const lines = raw.map((r) => line(r.price, r.price, r.q + 1));
        const subtotal = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);
        const share = discountShare(lines, { kind: "amount", value: amount });
        const expected = needsDiscountOverride(
          { kind: "amount", value: Math.min(amount, subtotal) },
          subtotal,
          threshold,
        );
        assertEquals(shareNeedsApproval(share, threshold, null), expected);
      },
    ),
  );
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
