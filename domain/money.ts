/**
 * The money kernel: integer-cents arithmetic shared by every feature (API §1.2: "arithmetic
 * in integer cents; never a float in a total").
 *
 * - Amounts are `number`s holding safe integers of cents (`1234` = "12.34"). Every function
 *   here refuses non-integers, so a float can never leak into a total.
 * - Percentages are basis points (hundredths of a percent): "12.50" → `1250`. The API and the
 *   runtime config carry percentages with at most two decimals, so this is exact.
 * - Rounding rule: **round half away from zero** (commercial rounding), applied once per
 *   computed amount: 2.5 ¢ → 3 ¢, −2.5 ¢ → −3 ¢, so `percentOf(-a, p) === -percentOf(a, p)`
 *   and a refund mirrors its sale exactly.
 * - Splitting an amount over lines uses the largest remainder method (`allocate`), so the
 *   parts always sum exactly to the whole.
 * - Zero is always `+0`, never `-0`.
 */
import { ValidationError } from "./errors.ts";

/** An amount in integer cents. */
export type Cents = number;
/** A percentage in basis points: 1 % = 100, 100 % = 10 000. */
export type BasisPoints = number;

export const FULL_PERCENT: BasisPoints = 10_000;

const MONEY_PATTERN = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;
const PERCENT_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Throws a RangeError unless `value` is a safe integer (a programming error, not bad input). */
export function assertCents(value: number, name = "amount"): asserts value is Cents {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be a safe integer number of cents, got ${value}`);
  }
}

/** `+0` instead of `-0`; every other value unchanged. */
function normalizeZero(value: number): number {
  return value === 0 ? 0 : value;
}

/**
 * Parses a decimal money string ("12.34", "12.3", "12", "-0.50") into integer cents.
 * Strict: no sign other than a leading "-", no exponent, no spaces, no thousands separators,
 * at most two decimals, at least one digit before the point. Throws ValidationError (400)
 * naming `path` otherwise.
 */
export function parseMoney(text: string, path = "amount"): Cents {
  const match = typeof text === "string" ? MONEY_PATTERN.exec(text) : null;
  if (!match) {
    throw new ValidationError([{
      path,
      message: `Expected an amount with at most two decimals, got ${JSON.stringify(text)}`,
    }]);
  }
  const [, minus, whole = "", fraction = ""] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) {
    throw new ValidationError([{ path, message: `Amount ${text} is too large` }]);
  }
  return normalizeZero(minus ? -cents : cents);
}

/** Formats integer cents as a two-decimal string: 1234 → "12.34", -50 → "-0.50", 0 → "0.00". */
export function formatMoney(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/**
 * Parses a percentage string ("12.50", "8", "0.25") into basis points. Non-negative, at most
 * two decimals; throws ValidationError naming `path` otherwise. Upper bounds are the caller's
 * rule (a discount is at most 100 %, see `transaction_totals.ts`).
 */
export function parsePercent(text: string, path = "percent"): BasisPoints {
  const match = typeof text === "string" ? PERCENT_PATTERN.exec(text) : null;
  if (!match) {
    throw new ValidationError([{
      path,
      message: `Expected a percentage with at most two decimals, got ${JSON.stringify(text)}`,
    }]);
  }
  const [, whole = "", fraction = ""] = match;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(bp)) {
    throw new ValidationError([{ path, message: `Percentage ${text} is too large` }]);
  }
  return bp;
}

/** Formats basis points as a two-decimal percentage string: 1250 → "12.50". */
export function formatPercent(bp: BasisPoints): string {
  return formatMoney(bp);
}

/**
 * `a × b ÷ d` as an exact integer quotient and remainder (truncated toward zero, like `%`),
 * falling back to BigInt when the product is not a safe integer.
 */
function mulDivTrunc(a: number, b: number, d: number): { q: number; r: number } {
  const product = a * b;
  if (Number.isSafeInteger(product)) {
    const r = product % d;
    return { q: (product - r) / d, r };
  }
  const big = BigInt(a) * BigInt(b);
  const bd = BigInt(d);
  return { q: Number(big / bd), r: Number(big % bd) };
}

/**
 * `a × b ÷ d` rounded half away from zero, exactly (no floating-point division), for safe
 * integers `a`, `b` and a positive safe integer `d`.
 */
export function mulDivRound(a: number, b: number, d: number): number {
  assertCents(a, "a");
  assertCents(b, "b");
  if (!Number.isSafeInteger(d) || d <= 0) throw new RangeError(`divisor must be > 0, got ${d}`);
  const { q, r } = mulDivTrunc(a, b, d);
  const twiceRemainder = Math.abs(r) * 2;
  let result = q;
  if (twiceRemainder >= d) result += (a < 0) !== (b < 0) ? -1 : 1;
  if (!Number.isSafeInteger(result)) throw new RangeError("Result is not a safe integer");
  return normalizeZero(result);
}

/**
 * `bp` basis points of `amount`, rounded half away from zero to whole cents:
 * `percentOf(1999, 825)` = 164.9175 → 165; `percentOf(10, 2500)` = 2.5 → 3;
 * `percentOf(-10, 2500)` = −3.
 */
export function percentOf(amount: Cents, bp: BasisPoints): Cents {
  assertCents(amount);
  assertCents(bp, "basis points");
  return mulDivRound(amount, bp, FULL_PERCENT);
}

/**
 * Whether `part` is strictly more than `bp` basis points of `whole` (exact, no rounding):
 * `exceedsShare(11, 100, 1000)` → true (11 % > 10 %). A positive part of a zero (or negative)
 * whole always exceeds; a part ≤ 0 never does.
 */
export function exceedsShare(part: Cents, whole: Cents, bp: BasisPoints): boolean {
  assertCents(part, "part");
  assertCents(whole, "whole");
  assertCents(bp, "basis points");
  if (part <= 0) return false;
  if (whole <= 0) return true;
  // part / whole > bp / 10 000  ⇔  part × 10 000 > bp × whole
  const left = BigInt(part) * BigInt(FULL_PERCENT);
  const right = BigInt(bp) * BigInt(whole);
  return left > right;
}

/** Sum of cents (throws on a non-integer or an unsafe result). */
export function sumCents(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const value of values) {
    assertCents(value);
    total += value;
  }
  assertCents(total, "sum");
  return normalizeZero(total);
}

/**
 * Splits `total` over `weights` in proportion, so that the parts sum exactly to `total`
 * (largest remainder / Hamilton method):
 *
 * 1. each part gets `trunc(|total| × wᵢ ÷ Σw)`;
 * 2. the cents still missing go one each to the parts with the largest remainders, ties
 *    broken by position (earlier first);
 * 3. a negative total is split as its magnitude and negated, so allocation is symmetric.
 *
 * Weights are non-negative safe integers (e.g. line amounts in cents). When every weight is
 * zero, the total is split evenly (equal weights). An empty weight list only accepts a zero
 * total. Each part lies between `floor` and `ceil` of its exact share, so no part of a
 * non-negative total is negative, and with `total ≤ Σw` no part exceeds its weight.
 */
export function allocate(total: Cents, weights: readonly number[]): Cents[] {
  assertCents(total, "total");
  for (const [i, w] of weights.entries()) {
    if (!Number.isSafeInteger(w) || w < 0) {
      throw new RangeError(`weight ${i} must be a non-negative safe integer, got ${w}`);
    }
  }
  if (weights.length === 0) {
    if (total !== 0) throw new RangeError("Cannot allocate a non-zero amount over no parts");
    return [];
  }
  const sumWeights = weights.reduce((a, b) => a + b, 0);
  if (!Number.isSafeInteger(sumWeights)) throw new RangeError("Sum of weights is too large");
  const effective = sumWeights === 0 ? weights.map(() => 1) : weights;
  const divisor = sumWeights === 0 ? weights.length : sumWeights;
  const magnitude = Math.abs(total);

  const parts: number[] = [];
  const remainders: number[] = [];
  let allocated = 0;
  for (const w of effective) {
    const { q, r } = mulDivTrunc(magnitude, w, divisor);
    parts.push(q);
    remainders.push(r);
    allocated += q;
  }
  let missing = magnitude - allocated;
  if (missing > 0) {
    const order = remainders.map((_r, i) => i).sort((a, b) =>
      (remainders[b] as number) - (remainders[a] as number) || a - b
    );
    for (const i of order) {
      if (missing === 0) break;
      parts[i] = (parts[i] as number) + 1;
      missing--;
    }
  }
  return total < 0 ? parts.map((p) => 0 - p) : parts;
}
