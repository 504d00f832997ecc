import fc from "fast-check";
import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { percentOf, sumCents } from "../money.ts";
import { ConflictError } from "../errors.ts";
import {
  assertEquityNotConsumed,
  assertPayoffUnchanged,
  type ChargeMoney,
  equityOfPayment,
  rentalMoney,
  type RentToOwnTerms,
} from "./rental_money.ts";

Deno.test("equity, payoff and balance of a rent-to-own rental", () => {
  const terms: RentToOwnTerms = { purchasePriceCents: 60_000, equityPercentBp: 5_000 };
  const charges: ChargeMoney[] = [
    { amountCents: 4_999, paid: true, equityCents: equityOfPayment(4_999, terms) },
    { amountCents: 4_999, paid: false, equityCents: 0 },
  ];
  assertEquals(equityOfPayment(4_999, terms), 2_500);
  assertEquals(rentalMoney(charges, terms), {
    balanceDueCents: 4_999,
    equityCents: 2_500,
    payoffCents: 57_500,
  });
  assertEquals(rentalMoney(charges, null).payoffCents, null);
  assertEquals(
    rentalMoney([{ amountCents: 100, paid: true, equityCents: 100 }], {
      purchasePriceCents: 50,
      equityPercentBp: 10_000,
    }).payoffCents,
    0,
  );
});

type Op = { kind: "charge"; amount: number } | { kind: "pay" | "refund"; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("charge" as const), amount: fc.integer({ min: 0, max: 500_000 }) }),
  fc.record({ kind: fc.constantFrom("pay" as const, "refund" as const), at: fc.nat(50) }),
);

Deno.test("property: equity, payoff and balance reconcile with payments and refunds", () => {
  fc.assert(fc.property(
    fc.option(
      fc.record({
        purchasePriceCents: fc.integer({ min: 1, max: 10_000_000 }),
        equityPercentBp: fc.integer({ min: 0, max: 10_000 }),
      }),
      { nil: null },
    ),
    fc.array(op, { maxLength: 60 }),
    (terms, ops) => {
      const charges: ChargeMoney[] = [];
      let paidIn = 0; // Σ payments − Σ refunds, as the register saw them
      let equityTaken = 0;
      for (const o of ops) {
        if (o.kind === "charge") {
          charges.push({ amountCents: o.amount, paid: false, equityCents: 0 });
          continue;
        }
        const c = charges[o.at % Math.max(1, charges.length)];
        if (!c) continue;
        if (o.kind === "pay" && !c.paid) {
          c.paid = true;
          c.equityCents = equityOfPayment(c.amountCents, terms);
          paidIn += c.amountCents;
          equityTaken += c.equityCents;
        } else if (o.kind === "refund" && c.paid) {
          c.paid = false;
          paidIn -= c.amountCents;
          equityTaken -= c.equityCents;
          c.equityCents = 0;
        }
      }
      const money = rentalMoney(charges, terms);
      const billed = sumCents(charges.map((c) => c.amountCents));
      // Everything billed is either paid or still due.
      assertEquals(money.balanceDueCents + paidIn, billed);
      // Equity is what the payments accrued less what the refunds took back.
      assertEquals(money.equityCents, equityTaken);
      if (terms === null) {
        assertEquals(money.equityCents, 0);
        assertEquals(money.payoffCents, null);
      } else {
        const share = sumCents(
          charges.filter((c) => c.paid).map((c) => percentOf(c.amountCents, terms.equityPercentBp)),
        );
        assertEquals(money.equityCents, share);
        assertEquals(money.equityCents <= paidIn, true);
        assertEquals(money.payoffCents, Math.max(0, terms.purchasePriceCents - money.equityCents));
        assertEquals(
          money.payoffCents! + Math.min(money.equityCents, terms.purchasePriceCents),
          terms.purchasePriceCents,
        );
      }
    },
  ));
});

Deno.test("assertPayoffUnchanged() refuses a buyout priced at another payoff, naming the current one", () => {
  assertPayoffUnchanged("L-000001", 58_000, 58_000);
  for (const priced of [56_000, 60_000]) {
    const error = assertThrows(
      () => assertPayoffUnchanged("L-000001", priced, 58_000),
      ConflictError,
    ) as ConflictError;
    assertEquals([error.code, error.extensions], ["payoff_changed", { payoffAmount: "580.00" }]);
  }
});

Deno.test("assertEquityNotConsumed() refuses rent whose equity a buyout counted", () => {
  assertEquityNotConsumed([]);
  assertEquityNotConsumed([{ id: "c1", buyoutTransactionId: null }]);
  const error = assertThrows(() =>
    assertEquityNotConsumed([
      { id: "c1", buyoutTransactionId: null },
      { id: "c2", buyoutTransactionId: "t9" },
    ]), ConflictError) as ConflictError;
  assertEquals([error.code, error.extensions], ["equity_consumed", { buyoutTransactionId: "t9" }]);
});
