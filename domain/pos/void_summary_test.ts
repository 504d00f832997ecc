import { assertEquals } from "../../tests/_helpers/assert.ts";
import { mergeVoids, sessionOfVoid, summarizeVoids } from "./void_summary.ts";

const ANA = { id: "u-ana", name: "Ana Cruz" };
const BEN = { id: "u-ben", name: "Ben Ode" };

Deno.test("summarizeVoids() counts voids and their totals, by cashier name, unknown last", () => {
  assertEquals(
    summarizeVoids([
      { transactionId: "t1", totalCents: 1000, voidedBy: BEN },
      { transactionId: "t2", totalCents: 250, voidedBy: null },
      { transactionId: "t3", totalCents: -500, voidedBy: ANA },
      { transactionId: "t4", totalCents: 99, voidedBy: BEN },
    ]),
    {
      count: 4,
      amount: 1849,
      byCashier: [
        { cashier: ANA, count: 1, amount: 500 },
        { cashier: BEN, count: 2, amount: 1099 },
        { cashier: null, count: 1, amount: 250 },
      ],
    },
  );
  assertEquals(summarizeVoids([]), { count: 0, amount: 0, byCashier: [] });
});

Deno.test("mergeVoids() adds up the sessions' voids cashier by cashier", () => {
  const merged = mergeVoids([
    summarizeVoids([{ transactionId: "t1", totalCents: 1000, voidedBy: BEN }]),
    summarizeVoids([
      { transactionId: "t2", totalCents: 300, voidedBy: ANA },
      { transactionId: "t3", totalCents: 200, voidedBy: BEN },
    ]),
  ]);
  assertEquals(merged, {
    count: 3,
    amount: 1500,
    byCashier: [
      { cashier: ANA, count: 1, amount: 300 },
      { cashier: BEN, count: 2, amount: 1200 },
    ],
  });
});

Deno.test("sessionOfVoid() places a void in its session, or a pending one by register and time", () => {
  const at = (hour: number) => new Date(`2026-11-21T${String(hour).padStart(2, "0")}:00:00Z`);
  const sessions = [
    { id: "morning", registerId: "front", openedAt: at(8), closedAt: at(12) },
    { id: "afternoon", registerId: "front", openedAt: at(12), closedAt: null },
    { id: "back", registerId: "back", openedAt: at(8), closedAt: null },
  ];
  const pending = (registerId: string | null, hour: number) =>
    sessionOfVoid({ drawerSessionId: null, registerId, voidedAt: at(hour) }, sessions);
  assertEquals(
    sessionOfVoid({ drawerSessionId: "morning", registerId: "front", voidedAt: at(15) }, sessions),
    "morning",
  );
  assertEquals(pending("front", 9), "morning");
  assertEquals(pending("front", 12), "afternoon");
  assertEquals(pending("back", 13), "back");
  assertEquals(pending("front", 7), undefined);
  assertEquals(pending(null, 9), undefined);
  assertEquals(
    sessionOfVoid({ drawerSessionId: "elsewhere", registerId: "front", voidedAt: at(9) }, sessions),
    undefined,
  );
});
