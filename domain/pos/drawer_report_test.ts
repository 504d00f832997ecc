import fc from "fast-check";
import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import {
  buildSession,
  NOW,
  OPENED,
  REFUND,
  REPAIR,
  SALE,
  session,
  sessionSpecArb,
  VOIDED,
} from "../../tests/_helpers/pos_report_fixtures.ts";
import { buildDrawerReport } from "./drawer_report.ts";

Deno.test("buildDrawerReport() builds an X report for an open session by the API §8 definitions", () => {
  const report = buildDrawerReport({
    session: session(),
    transactions: [SALE, REPAIR, VOIDED, REFUND],
    adjustments: [
      { id: "a2", direction: "out", amountCents: 1500, reason: "Bank drop", createdAt: NOW },
      { id: "a1", direction: "in", amountCents: 500, reason: "Change", createdAt: OPENED },
    ],
    generatedAt: NOW,
  });
  assertEquals(report.kind, "X");
  assertEquals(report.salesSummary, {
    transactionCount: 2,
    grossSales: 7000,
    discounts: 200,
    refunds: 900,
    netSales: 5900,
    tax: 72,
    total: 5972,
  });
  assertEquals(report.paymentBreakdown, [
    { method: "cash", count: 3, amount: 1944 + 2000 - 972 },
    { method: "card", count: 1, amount: 3000 },
  ]);
  assertEquals(report.discounts, [
    { transactionId: "t1", receiptNumber: "S-0001234", kind: "percent", value: 1000, amount: 200 },
  ]);
  assertEquals(report.cashAccountability, {
    openingBalance: 10_000,
    cashSales: 3944,
    cashRefunds: 972,
    adjustmentsIn: 500,
    adjustmentsOut: 1500,
    expectedBalance: 10_000 + 3944 - 972 + 500 - 1500,
    closingBalance: null,
    overShort: null,
  });
  assertEquals(report.adjustments.map((a) => a.id), ["a1", "a2"]);
});

Deno.test("buildDrawerReport() gives a Z report with over/short once closed", () => {
  const report = buildDrawerReport({
    session: session({ status: "closed", closingBalanceCents: 11_900, closedAt: NOW }),
    transactions: [SALE],
    adjustments: [],
    generatedAt: NOW,
  });
  assertEquals(report.kind, "Z");
  assertEquals(report.cashAccountability.expectedBalance, 11_944);
  assertEquals(report.cashAccountability.closingBalance, 11_900);
  assertEquals(report.cashAccountability.overShort, -44);
  assertThrows(() =>
    buildDrawerReport({
      session: session({ status: "closed" }),
      transactions: [],
      adjustments: [],
      generatedAt: NOW,
    }), RangeError);
});

Deno.test("buildDrawerReport() of an empty session is all zeros", () => {
  const report = buildDrawerReport({
    session: session({ openingBalanceCents: 0 }),
    transactions: [],
    adjustments: [],
    generatedAt: NOW,
  });
  assertEquals(report.salesSummary.total, 0);
  assertEquals(report.paymentBreakdown, []);
  assertEquals(report.cashAccountability.expectedBalance, 0);
});

Deno.test("drawer reports reconcile for any session (net = gross − discounts − refunds, cash, tenders)", () => {
  fc.assert(
    fc.property(sessionSpecArb("s"), (spec) => {
      const built = buildSession(spec);
      const report = buildDrawerReport({ ...built, generatedAt: NOW });
      const { salesSummary: s, cashAccountability: c } = report;
      const e = built.expected;
      assertEquals(s.transactionCount, e.transactionCount);
      assertEquals(s.grossSales, e.grossSales);
      assertEquals(s.discounts, e.discounts);
      assertEquals(s.refunds, e.refunds);
      assertEquals(s.netSales, s.grossSales - s.discounts - s.refunds);
      assertEquals(s.tax, e.taxCollected - e.taxRefunded);
      assertEquals(s.total, s.netSales + s.tax);
      // Every counted sale was paid in full and every refund paid out in full.
      assertEquals(report.paymentBreakdown.reduce((a, r) => a + r.amount, 0), s.total);
      // Expected cash = opening + cash payments − change − cash refunds + in − out.
      assertEquals(
        c.expectedBalance,
        spec.openingBalanceCents + e.cashTendered - e.cashChange - e.cashRefunds +
          e.adjustmentsIn - e.adjustmentsOut,
      );
      assertEquals(c.cashSales, e.cashTendered - e.cashChange);
      assertEquals(c.cashRefunds, e.cashRefunds);
      assertEquals(
        c.expectedBalance,
        c.openingBalance + c.cashSales - c.cashRefunds + c.adjustmentsIn - c.adjustmentsOut,
      );
      if (spec.status === "closed") {
        assertEquals(report.kind, "Z");
        assertEquals(c.overShort, spec.closingDelta);
        assertEquals(c.overShort, (c.closingBalance ?? 0) - c.expectedBalance);
      } else {
        assertEquals([report.kind, c.closingBalance, c.overShort], ["X", null, null]);
      }
      // Voided and pending transactions count nowhere.
      const withoutThem = buildDrawerReport({
        ...built,
        transactions: built.transactions.filter((t) => t.status === "complete"),
        generatedAt: NOW,
      });
      assertEquals(withoutThem, report);
    }),
    { numRuns: 200 },
  );
});

Deno.test("buildDrawerReport() names the register and cashier and counts voids apart", () => {
  const register = { id: "r1", name: "Front" };
  const cashier = { id: "u1", name: "Ana Cruz" };
  const report = buildDrawerReport({
    session: session({ register, cashier }),
    transactions: [SALE, VOIDED],
    adjustments: [],
    voids: [{ transactionId: "t3", totalCents: 10_799, voidedBy: cashier }],
    generatedAt: NOW,
  });
  assertEquals([report.register, report.cashier], [register, cashier]);
  assertEquals(report.voids, {
    count: 1,
    amount: 10_799,
    byCashier: [{ cashier, count: 1, amount: 10_799 }],
  });
  // A void counts nowhere else.
  assertEquals(report.salesSummary.transactionCount, 1);
  assertEquals(report.cashAccountability.cashSales, 1944);
});
