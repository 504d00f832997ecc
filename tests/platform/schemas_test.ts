/**
 * The shared zod pieces of app/schemas.ts, with property-based inputs (fast-check, fixed
 * seeds): money and percentages as JSON numbers or strings (API §1.2), the accepted date range
 * (API §1.1), and the NUL guard every route runs (server/input_guards.ts).
 */
import fc from "fast-check";
import { z } from "zod";
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  dateOrTimestamp,
  isoDate,
  MAX_YEAR,
  MIN_YEAR,
  money,
  nonNegativeMoney,
  percent,
  timestamp,
} from "../../app/schemas.ts";
import { nulBytePaths, rejectNulBytes } from "../../server/input_guards.ts";
import { ValidationError } from "../../domain/errors.ts";
import { fieldIssues } from "../../server/errors.ts";

const RUNS = { seed: 20261121, numRuns: 2000 };

/** Integer cents → the wire text, by integer arithmetic only. */
function centsText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const MAX_CENTS = 999_999_999_999; // numeric(12,2)
const cents = fc.integer({ min: -MAX_CENTS, max: MAX_CENTS });

Deno.test("money accepts the JSON numbers of the issue: 19.99, 1.1 and 0.29", () => {
  assertEquals(money.parse(19.99), "19.99");
  assertEquals(money.parse(1.1), "1.10");
  assertEquals(money.parse(0.29), "0.29");
  assertEquals(money.parse(1.15), "1.15");
  assertEquals(money.parse(-0.07), "-0.07");
  assertEquals(money.parse(5), "5.00");
  assertEquals(money.parse(-0), "0.00");
  assertEquals(money.parse(9999999999.99), "9999999999.99");
});

Deno.test("money accepts every amount of at most two decimals as a JSON number", () => {
  fc.assert(
    fc.property(cents, (c) => {
      assertEquals(money.parse(c / 100), centsText(c) === "-0.00" ? "0.00" : centsText(c));
      // What goes over the wire is the JSON text of the number.
      assertEquals(money.parse(JSON.parse(JSON.stringify(c / 100))), money.parse(c / 100));
    }),
    RUNS,
  );
});

Deno.test("money accepts every amount of at most two decimals as a string, unchanged", () => {
  fc.assert(
    fc.property(cents, (c) => {
      const text = centsText(c);
      assertEquals(money.parse(text), text === "-0.00" ? "0.00" : text);
    }),
    RUNS,
  );
});

Deno.test("money refuses any number with a third decimal", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }).filter((m) => m % 10 !== 0),
      (mills) => {
        assertEquals(money.safeParse(mills / 1000).success, false);
        assertEquals(money.safeParse(centsText(Math.trunc(mills / 10)) + "5").success, false);
      },
    ),
    RUNS,
  );
});

Deno.test("money: whatever double it accepts, its value is kept exactly", () => {
  fc.assert(
    fc.property(fc.double({ noNaN: false }), (n) => {
      const result = money.safeParse(n);
      if (result.success) {
        assert(Math.abs(n) < 1e10, `accepted ${n}`);
        assertEquals(Number(result.data), n === 0 ? 0 : n);
        assert(/^-?\d+\.\d{2}$/.test(result.data), result.data);
      }
    }),
    RUNS,
  );
});

Deno.test("money refuses non-finite, too large and malformed amounts", () => {
  for (
    const bad of [
      Infinity,
      -Infinity,
      NaN,
      1e10,
      -1e10,
      1e21,
      1e-7,
      0.001,
      "1e3",
      "12.345",
      "12.",
      ".5",
      "+1",
      " 1",
      "99999999999",
      "1,00",
      "",
      null,
      true,
    ]
  ) {
    assertEquals(money.safeParse(bad).success, false, `money accepted ${String(bad)}`);
  }
  assertEquals(nonNegativeMoney.safeParse(-0.01).success, false);
  assertEquals(nonNegativeMoney.parse(0.29), "0.29");
});

Deno.test("percent accepts 0..100 with at most two decimals as numbers and strings", () => {
  assertEquals(percent.parse(12.5), "12.50");
  assertEquals(percent.parse(0.29), "0.29");
  assertEquals(percent.parse(8.875 * 2), "17.75");
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10_000 }), (c) => {
      assertEquals(percent.parse(c / 100), centsText(c));
      assertEquals(percent.parse(centsText(c)), centsText(c));
    }),
    RUNS,
  );
  for (const bad of [100.01, -0.01, 12.345, "100.01", "-1", 1e21, Infinity]) {
    assertEquals(percent.safeParse(bad).success, false, `percent accepted ${String(bad)}`);
  }
});

Deno.test(`dates and timestamps are accepted from ${MIN_YEAR} to ${MAX_YEAR} only`, () => {
  assertEquals(isoDate.parse("1900-01-01"), "1900-01-01");
  assertEquals(isoDate.parse("2999-12-31"), "2999-12-31");
  assertEquals(timestamp.parse("2999-12-31T23:59:59.999Z"), "2999-12-31T23:59:59.999Z");
  for (const bad of ["9999-12-31", "3000-01-01", "1899-12-31", "0001-01-01", "0000-01-01"]) {
    assertEquals(isoDate.safeParse(bad).success, false, bad);
    assertEquals(timestamp.safeParse(`${bad}T00:00:00Z`).success, false, bad);
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 9999 }), (year) => {
      const y = String(year).padStart(4, "0");
      const ok = year >= MIN_YEAR && year <= MAX_YEAR;
      assertEquals(isoDate.safeParse(`${y}-06-15`).success, ok);
      assertEquals(timestamp.safeParse(`${y}-06-15T12:00:00+02:00`).success, ok);
    }),
    { ...RUNS, numRuns: 500 },
  );
});

Deno.test("nulBytePaths() names every string and key holding a NUL, nested anywhere", () => {
  assertEquals(nulBytePaths({ email: "a\0", password: "fine" }), ["email"]);
  assertEquals(
    nulBytePaths({ a: [{ b: "x" }, { b: "\0" }], c: { "d\0": 1 }, e: "\0\0" }),
    ["a.1.b", "c.d\\0", "e"],
  );
  assertEquals(nulBytePaths(["ok", 1, null, true, "\0"]), ["4"]);
  assertEquals(nulBytePaths("\0"), [""]);
  assertEquals(nulBytePaths({ q: "caf\u00e9 %_\\" }), []);
});

Deno.test("nulBytePaths() walks very deep and very wide values without overflowing", () => {
  let deep: unknown = "\0";
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assertEquals(nulBytePaths(deep).length, 1);
  const wide = Array.from({ length: 300_000 }, (_, i) => (i % 1000 === 999 ? "\0" : "x"));
  assertEquals(nulBytePaths(wide, 20).length, 20);
});

Deno.test("rejectNulBytes() throws a validation error naming the fields", () => {
  rejectNulBytes({ name: "no nul here" });
  try {
    rejectNulBytes({ name: "a\0b", tags: ["\0"] });
    throw new Error("expected a ValidationError");
  } catch (error) {
    assert(error instanceof ValidationError);
    assertEquals(error.issues?.map((i) => i.path), ["name", "tags.0"]);
  }
});

Deno.test("a missing field of several forms (money, percentage, date or timestamp) says Required", () => {
  const body = z.strictObject({
    amount: money,
    floor: nonNegativeMoney,
    rate: percent,
    from: dateOrTimestamp,
  });
  const result = body.safeParse({});
  assert(!result.success);
  assertEquals(fieldIssues(result.error), [
    { path: "amount", message: "Required" },
    { path: "floor", message: "Required" },
    { path: "rate", message: "Required" },
    { path: "from", message: "Required" },
  ]);
  const wrong = body.safeParse({ amount: "12.345", floor: "1", rate: "5", from: "2026-01-01" });
  assert(!wrong.success);
  assertEquals(fieldIssues(wrong.error), [
    { path: "amount", message: "Expected an amount with at most two decimals" },
  ]);
});
