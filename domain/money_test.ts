import fc from "fast-check";
import { assert, assertEquals, assertThrows } from "../tests/_helpers/assert.ts";
import { ValidationError } from "./errors.ts";
import {
  allocate,
  exceedsShare,
  formatMoney,
  formatPercent,
  mulDivRound,
  parseMoney,
  parsePercent,
  percentOf,
  sumCents,
} from "./money.ts";

const MAX_CENTS = 99_999_999_999; // numeric(12,2)

Deno.test("parseMoney() reads two-decimal strings into integer cents", () => {
  assertEquals(parseMoney("12.34"), 1234);
  assertEquals(parseMoney("12.3"), 1230);
  assertEquals(parseMoney("12"), 1200);
  assertEquals(parseMoney("0.05"), 5);
  assertEquals(parseMoney("-0.50"), -50);
  assertEquals(Object.is(parseMoney("-0.00"), 0), true);
  assertEquals(parseMoney("999999999.99"), 99_999_999_999);
});

Deno.test("parseMoney() refuses more than two decimals and anything not a plain amount", () => {
  for (
    const bad of ["1.234", "0.001", "", "abc", "1,00", "+1.00", ".5", "1.", " 1.00", "1e3", "--1"]
  ) {
    const error = assertThrows(
      () => parseMoney(bad, "items[0].unitPrice"),
      ValidationError,
    ) as ValidationError;
    assertEquals(error.issues?.[0]?.path, "items[0].unitPrice");
  }
});

Deno.test("formatMoney() writes cents as a two-decimal string", () => {
  assertEquals(formatMoney(1234), "12.34");
  assertEquals(formatMoney(5), "0.05");
  assertEquals(formatMoney(0), "0.00");
  assertEquals(formatMoney(-50), "-0.50");
  assertEquals(formatMoney(-123456), "-1234.56");
  assertThrows(() => formatMoney(1.5), RangeError);
});

Deno.test("formatMoney() and parseMoney() round-trip every amount", () => {
  fc.assert(
    fc.property(fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }), (cents) => {
      assertEquals(parseMoney(formatMoney(cents)), cents);
    }),
  );
});

Deno.test("parsePercent() reads percentages into basis points", () => {
  assertEquals(parsePercent("12.50"), 1250);
  assertEquals(parsePercent("8.25"), 825);
  assertEquals(parsePercent("10"), 1000);
  assertEquals(parsePercent("0.00"), 0);
  assertEquals(formatPercent(1250), "12.50");
  assertThrows(() => parsePercent("8.875"), ValidationError);
  assertThrows(() => parsePercent("-1.00"), ValidationError);
});

Deno.test("percentOf() rounds half away from zero", () => {
  assertEquals(percentOf(10, 2500), 3); // 2.5 → 3
  assertEquals(percentOf(-10, 2500), -3); // −2.5 → −3
  assertEquals(percentOf(1999, 825), 165); // 164.9175 → 165
  assertEquals(percentOf(1000, 825), 83); // 82.5 → 83
  assertEquals(percentOf(1001, 825), 83); // 82.5825 → 83
  assertEquals(percentOf(999, 1000), 100); // 99.9 → 100
  assertEquals(percentOf(994, 1000), 99); // 99.4 → 99
  assertEquals(Object.is(percentOf(-1, 100), 0), true); // −0.01 → 0, never −0
});

Deno.test("percentOf() is exact for amounts whose product exceeds 2^53", () => {
  assertEquals(percentOf(99_999_999_999, 9_999), 99_989_999_999); // 99 989 999 999.0001
  assertEquals(mulDivRound(9_007_199_254_740_991, 3, 6), 4_503_599_627_370_496); // .5 → up
});

Deno.test("percentOf() is odd-symmetric and within half a cent of the exact value", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }),
      fc.integer({ min: 0, max: 10_000 }),
      (amount, bp) => {
        const p = percentOf(amount, bp);
        assertEquals(percentOf(-amount, bp), 0 - p);
        // |p − amount·bp/10000| ≤ 1/2, checked exactly in integers.
        const diff = BigInt(p) * 10_000n - BigInt(amount) * BigInt(bp);
        assert((diff < 0n ? -diff : diff) * 2n <= 10_000n);
      },
    ),
  );
});

Deno.test("exceedsShare() compares a part with a percentage of the whole exactly", () => {
  assertEquals(exceedsShare(1000, 10_000, 1000), false); // exactly 10 %
  assertEquals(exceedsShare(1001, 10_000, 1000), true);
  assertEquals(exceedsShare(0, 0, 1000), false);
  assertEquals(exceedsShare(1, 0, 1000), true);
});

Deno.test("sumCents() never produces -0 or floats", () => {
  assertEquals(Object.is(sumCents([1, 2, -3]), 0), true);
  assertThrows(() => sumCents([0.1, 0.2]), RangeError);
});

Deno.test("allocate() splits by the largest remainder, earlier lines winning ties", () => {
  assertEquals(allocate(100, [1, 1, 1]), [34, 33, 33]);
  assertEquals(allocate(-100, [1, 1, 1]), [-34, -33, -33]);
  assertEquals(allocate(10, [500, 300, 200]), [5, 3, 2]);
  assertEquals(allocate(7, [1000, 1999, 1]), [2, 5, 0]);
  assertEquals(allocate(5, [0, 0]), [3, 2]);
  assertEquals(allocate(0, []), []);
  assertThrows(() => allocate(1, []), RangeError);
  assertThrows(() => allocate(1, [-1, 2]), RangeError);
});

Deno.test("allocate() parts always sum exactly to the total and stay within a cent of the share", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }),
      fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 30 }),
      (total, weights) => {
        const parts = allocate(total, weights);
        assertEquals(parts.length, weights.length);
        assertEquals(parts.reduce((a, b) => a + b, 0), total);
        const sumW = weights.reduce((a, b) => a + b, 0);
        parts.forEach((part, i) => {
          assert(Number.isSafeInteger(part));
          const w = BigInt(sumW === 0 ? 1 : weights[i] as number);
          const d = BigInt(sumW === 0 ? weights.length : sumW);
          // |part·Σw − total·w| < Σw  ⇔  part is floor or ceil of the exact share
          const diff = BigInt(part) * d - BigInt(total) * w;
          assert((diff < 0n ? -diff : diff) < d);
        });
      },
    ),
  );
});

Deno.test("allocate() never gives a line more than its weight when the total fits", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (weights, fraction) => {
        const sumW = weights.reduce((a, b) => a + b, 0);
        const total = Math.floor(sumW * fraction);
        allocate(total, weights).forEach((part, i) => {
          assert(part >= 0 && part <= (weights[i] as number));
        });
      },
    ),
  );
});
