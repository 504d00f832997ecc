import fc from "fast-check";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import {
  buildSession,
  cashSessionReports,
  sessionSpecArb,
} from "../../tests/_helpers/pos_report_fixtures.ts";
import { buildDailyReport, sessionCountsOnDate } from "./daily_report.ts";
import { buildDrawerReport, type DrawerReport } from "./drawer_report.ts";

const NOW = new Date("2026-11-21T22:00:00.000Z");

const report = cashSessionReports(NOW);

Deno.test("buildDailyReport() sums the sessions and over/short over the closed ones only", () => {
  const daily = buildDailyReport({
    locationId: "l1",
    date: "2026-11-21",
    generatedAt: NOW,
    sessions: [report("bb", "open", 5000, 700), report("a", "closed", 10_000, 1000, 10_950)],
  });
  assertEquals(daily.salesSummary.transactionCount, 2);
  assertEquals(daily.salesSummary.total, 1700);
  assertEquals(daily.paymentBreakdown, [{ method: "cash", count: 2, amount: 1700 }]);
  assertEquals(daily.cashAccountability, {
    openingBalance: 15_000,
    cashSales: 1700,
    cashRefunds: 0,
    adjustmentsIn: 0,
    adjustmentsOut: 0,
    expectedBalance: 16_700,
    closingBalance: 10_950,
    overShort: -50,
  });
  assertEquals(daily.sessions.map((s) => [s.sessionId, s.kind, s.overShort]), [
    ["a", "Z", -50],
    ["bb", "X", null],
  ]);
});

Deno.test("buildDailyReport() with only open sessions has no closing balance or over/short", () => {
  const daily = buildDailyReport({
    locationId: "l1",
    date: "2026-11-21",
    generatedAt: NOW,
    sessions: [report("a", "open", 100, 1)],
  });
  assertEquals(daily.cashAccountability.closingBalance, null);
  assertEquals(daily.cashAccountability.overShort, null);
  const empty = buildDailyReport({
    locationId: "l1",
    date: "2026-11-21",
    generatedAt: NOW,
    sessions: [],
  });
  assertEquals(empty.salesSummary.total, 0);
  assertEquals(empty.sessions, []);
});

Deno.test("sessionCountsOnDate() uses the closing date for closed sessions and today for open ones", () => {
  const tz = "America/New_York";
  const lateClose = new Date("2026-11-22T03:00:00.000Z"); // 22:00 on the 21st in New York
  assertEquals(
    sessionCountsOnDate({ status: "closed", closedAt: lateClose }, "2026-11-21", tz, NOW),
    true,
  );
  assertEquals(
    sessionCountsOnDate({ status: "closed", closedAt: lateClose }, "2026-11-22", tz, NOW),
    false,
  );
  assertEquals(sessionCountsOnDate({ status: "open" }, "2026-11-21", tz, NOW), true);
  assertEquals(sessionCountsOnDate({ status: "open" }, "2026-11-20", tz, NOW), false);
});

Deno.test("the daily report is the sum of its sessions' drawer reports", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4 }).chain((count) =>
        fc.tuple(...Array.from({ length: count }, (_, i) => sessionSpecArb(`s${i}`, 6)))
      ),
      (specs) => {
        const reports = specs.map((spec) =>
          buildDrawerReport({ ...buildSession(spec), generatedAt: NOW })
        );
        const daily = buildDailyReport({
          locationId: "location-1",
          date: "2026-11-21",
          generatedAt: NOW,
          sessions: reports,
        });
        const sum = (pick: (r: DrawerReport) => number) => reports.reduce((a, r) => a + pick(r), 0);
        const s = daily.salesSummary;
        assertEquals(s.transactionCount, sum((r) => r.salesSummary.transactionCount));
        assertEquals(s.grossSales, sum((r) => r.salesSummary.grossSales));
        assertEquals(s.discounts, sum((r) => r.salesSummary.discounts));
        assertEquals(s.refunds, sum((r) => r.salesSummary.refunds));
        assertEquals(s.tax, sum((r) => r.salesSummary.tax));
        assertEquals(s.netSales, s.grossSales - s.discounts - s.refunds);
        assertEquals(s.total, s.netSales + s.tax);
        assertEquals(
          daily.paymentBreakdown.reduce((a, r) => a + r.amount, 0),
          sum((r) => r.paymentBreakdown.reduce((a, p) => a + p.amount, 0)),
        );
        assertEquals(
          daily.paymentBreakdown.reduce((a, r) => a + r.count, 0),
          sum((r) => r.paymentBreakdown.reduce((a, p) => a + p.count, 0)),
        );
        const c = daily.cashAccountability;
        assertEquals(c.expectedBalance, sum((r) => r.cashAccountability.expectedBalance));
        assertEquals(
          c.expectedBalance,
          c.openingBalance + c.cashSales - c.cashRefunds + c.adjustmentsIn - c.adjustmentsOut,
        );
        const closed = reports.filter((r) => r.kind === "Z");
        if (closed.length === 0) {
          assertEquals([c.closingBalance, c.overShort], [null, null]);
        } else {
          const closedSum = (pick: (r: DrawerReport) => number) =>
            closed.reduce((a, r) => a + pick(r), 0);
          assertEquals(
            c.closingBalance,
            closedSum((r) => r.cashAccountability.closingBalance ?? 0),
          );
          assertEquals(
            c.overShort,
            closedSum((r) => r.cashAccountability.closingBalance ?? 0) -
              closedSum((r) => r.cashAccountability.expectedBalance),
          );
        }
        assertEquals(daily.sessions.length, reports.length);
        assertEquals(daily.discounts.length, sum((r) => r.discounts.length));
        assertEquals(daily.adjustments.length, sum((r) => r.adjustments.length));
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("buildDailyReport() names each session's register and cashier and merges the voids", () => {
  const ana = { id: "u-ana", name: "Ana Cruz" };
  const ben = { id: "u-ben", name: "Ben Ode" };
  const named = (id: string, cashier: typeof ana, voids: number[]) =>
    buildDrawerReport({
      session: {
        id,
        registerId: `${id}-r`,
        register: { id: `${id}-r`, name: `Register ${id}` },
        cashier,
        status: "open",
        openingBalanceCents: 0,
        openedAt: new Date(`2026-11-21T1${id.length}:00:00.000Z`),
      },
      transactions: [],
      adjustments: [],
      voids: voids.map((cents, i) => ({
        transactionId: `${id}-v${i}`,
        totalCents: cents,
        voidedBy: i === 0 ? cashier : ana,
      })),
      generatedAt: NOW,
    });
  const daily = buildDailyReport({
    locationId: "l1",
    date: "2026-11-21",
    generatedAt: NOW,
    sessions: [named("bb", ben, [700, 50]), named("a", ana, [1000])],
  });
  assertEquals(
    daily.sessions.map((s) => [s.register?.name, s.cashier?.name]),
    [["Register a", "Ana Cruz"], ["Register bb", "Ben Ode"]],
  );
  assertEquals(daily.voids, {
    count: 3,
    amount: 1750,
    byCashier: [{ cashier: ana, count: 2, amount: 1050 }, { cashier: ben, count: 1, amount: 700 }],
  });
});
