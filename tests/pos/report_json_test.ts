/** The wire shapes of the drawer and daily reports (pure: no database). */
import { assertEquals } from "../_helpers/assert.ts";
import { dailyReportToJson, drawerReportToJson } from "../../app/pos/report_json.ts";
import { buildDailyReport } from "../../domain/pos/daily_report.ts";
import { buildDrawerReport } from "../../domain/pos/drawer_report.ts";
import { cashSessionReports, NOW, REFUND, SALE, session } from "../_helpers/pos_report_fixtures.ts";

const cashSession = cashSessionReports(NOW);

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
    receiptNumber: "S-0001234",
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
