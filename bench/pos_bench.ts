/** `deno bench`: the hot pure paths of the point of sale (run by `domain_bench.ts`). */
import fc from "fast-check";
import { buildSession, saleSpecArb } from "../tests/_helpers/pos_report_fixtures.ts";
import { buildDrawerReport } from "../domain/pos/drawer_report.ts";
import { computeRefund } from "../domain/pos/refunds.ts";
import { computeTotals, type TotalsLineInput } from "../domain/pos/transaction_totals.ts";

const THREE_LINES: TotalsLineInput[] = [
  { kind: "sale", quantity: 2, unitPriceCents: 1999, taxCategory: "goods", isConsumable: false },
  { kind: "labor", quantity: 1, unitPriceCents: 4500, taxCategory: "service", isConsumable: false },
  { kind: "part", quantity: 3, unitPriceCents: 250, taxCategory: "goods", isConsumable: false },
];

Deno.bench("computeTotals() of a 3-line sale with a discount and two tax rates", () => {
  computeTotals({
    lines: THREE_LINES,
    discount: { kind: "percent", value: 1000 },
    taxRates: { goods: 825, service: 500 },
    taxExempt: false,
  });
});

const sales = fc.sample(saleSpecArb, { numRuns: 1_000, seed: 42 }).map((sale) => ({
  ...sale,
  status: "complete" as const,
}));
const built = buildSession({
  id: "bench",
  status: "closed",
  openingBalanceCents: 20_000,
  closingDelta: -125,
  taxRates: { goods: 825, service: 500 },
  sales,
  adjustments: [{ direction: "in", amountCents: 5_000 }, { direction: "out", amountCents: 12_000 }],
});
const generatedAt = new Date("2026-11-21T22:00:00.000Z");

Deno.bench(
  `buildDrawerReport() over ${built.transactions.length} transactions (1,000 sales + refunds)`,
  () => {
    buildDrawerReport({ ...built, generatedAt });
  },
);

const REFUNDABLE = [{ itemId: "a", quantity: 7, netCents: 10_001, taxCents: 826 }];

Deno.bench("computeRefund() of 3 of 7 units", () => {
  computeRefund(REFUNDABLE, [{ itemId: "a", quantity: 3 }]);
});
