/** The wire shapes of the drawer and daily reports (pure: no database). */
import { assertEquals } from "../_helpers/assert.ts";
import { dailyReportToJson, drawerReportToJson } from "../../app/pos/report_json.ts";
import { buildDailyReport } from "../../domain/pos/daily_report.ts";
import {
  buildDrawerReport,
  type DrawerReport,
  type ReportSession,
  type ReportTransaction,
} from "../../domain/pos/drawer_report.ts";

const OPENED = new Date("2026-11-21T14:00:00.000Z");
const NOW = new Date("2026-11-21T18:00:00.000Z");

function session(overrides: Partial<ReportSession> = {}): ReportSession {
  return {
    id: "s1",
    registerId: "r1",
    locationId: "l1",
    status: "open",
    openingBalanceCents: 10_000,
    openedAt: OPENED,
    ...overrides,
  };
}

const SALE: ReportTransaction = {
  id: "t1",
  type: "sale",
  status: "complete",
  discount: { kind: "percent", value: 1000 },
  lines: [
    { grossCents: 2000, discountCents: 200, netCents: 1800, taxCents: 144 },
    { grossCents: 500, discountCents: 0, netCents: 500, taxCents: 0, isConsumable: true },
  ],
  // Cash 20.00 tendered for 19.44 → amount 19.44 (change 0.56 already netted out).
  payments: [{ method: "cash", amountCents: 1944 }],
};

const REFUND: ReportTransaction = {
  id: "t4",
  type: "refund",
  status: "complete",
  lines: [{ grossCents: 0, discountCents: 0, netCents: -900, taxCents: -72 }],
  payments: [{ method: "cash", amountCents: -972 }],
};

/** A session with one cash sale of `cashSale` cents (closed with `closing`, or open). */
function cashSession(
  id: string,
  status: "open" | "closed",
  opening: number,
  cashSale: number,
  closing?: number,
): DrawerReport {
  return buildDrawerReport({
    session: session({
      id,
      registerId: `${id}-r`,
      status,
      openingBalanceCents: opening,
      closingBalanceCents: closing ?? null,
      openedAt: new Date(`2026-11-21T1${id.length}:00:00.000Z`),
      closedAt: status === "closed" ? NOW : null,
    }),
    transactions: [{
      id: `${id}-t`,
      type: "sale",
      status: "complete",
      lines: [{ grossCents: cashSale, discountCents: 0, netCents: cashSale, taxCents: 0 }],
      payments: [{ method: "cash", amountCents: cashSale }],
    }],
    adjustments: [],
    generatedAt: NOW,
  });
}

Deno.test("drawerReportToJson() writes money as strings and times as ISO", () => {
  const json = drawerReportToJson(buildDrawerReport({
    session: session({ status: "closed", closingBalanceCents: 10_900, closedAt: NOW }),
    transactions: [SALE, REFUND],
    adjustments: [{ id: "a1", direction: "in", amountCents: 5, reason: "x", createdAt: NOW }],
    generatedAt: NOW,
  }));
  assertEquals(json.salesSummary, {
    transactionCount: 1,
    grossSales: "20.00",
    discounts: "2.00",
    refunds: "9.00",
    netSales: "9.00",
    tax: "0.72",
    total: "9.72",
  });
  assertEquals(json.discounts, [{
    transactionId: "t1",
    kind: "percent",
    value: "10.00",
    amount: "2.00",
  }]);
  // expected = 100.00 + 19.44 − 9.72 + 0.05 = 109.77; closing 109.00
  assertEquals(json.cashAccountability.expectedBalance, "109.77");
  assertEquals(json.cashAccountability.overShort, "-0.77");
  assertEquals(json.generatedAt, "2026-11-21T18:00:00.000Z");
  assertEquals(json.adjustments[0]?.amount, "0.05");
  assertEquals(JSON.parse(JSON.stringify(json)), json);
});

Deno.test("dailyReportToJson() writes over/short as money and keeps null closing balances", () => {
  const daily = buildDailyReport({
    locationId: "l1",
    date: "2026-11-21",
    generatedAt: NOW,
    sessions: [
      cashSession("bb", "open", 5000, 700),
      cashSession("a", "closed", 10_000, 1000, 10_950),
    ],
  });
  const json = dailyReportToJson(daily);
  assertEquals(json.cashAccountability.overShort, "-0.50");
  assertEquals(json.sessions[1]?.closingBalance, null);
});
