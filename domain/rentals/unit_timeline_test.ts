import { assertEquals } from "../../tests/_helpers/assert.ts";
import { unitTimeline } from "./unit_timeline.ts";

const T = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

Deno.test("the timeline merges every source, oldest first, with from/to of each change", () => {
  const timeline = unitTimeline({
    history: [
      {
        kind: "created",
        status: "in_stock",
        condition: "new",
        source: "unit",
        actorId: "u1",
        at: T(0),
      },
      {
        kind: "changed",
        status: "rented",
        condition: "new",
        source: "rental",
        actorId: "u2",
        at: T(2),
      },
      {
        kind: "changed",
        status: "in_stock",
        condition: "good",
        source: "return",
        actorId: "u2",
        at: T(5),
      },
      {
        kind: "changed",
        status: "in_stock",
        condition: "good",
        source: "unit",
        actorId: "u2",
        at: T(6),
      },
      {
        kind: "changed",
        status: "sold",
        condition: "good",
        source: "sale",
        actorId: "u3",
        at: T(9),
      },
    ],
    sales: [{
      transactionId: "t1",
      type: "sale",
      receiptNumber: "S-0000001",
      accountId: "a1",
      actorId: "u3",
      at: T(9),
      amount: "100.00",
    }],
    rentals: [{
      rentalId: "r1",
      rentalNumber: "L-000001",
      accountId: "a1",
      memberId: null,
      startDate: "2026-01-01",
      createdAt: T(2),
      createdBy: "u2",
      returnedAt: T(5),
      returnedBy: "u2",
      returnCondition: "good",
      cancelledAt: null,
      cancelledBy: null,
      purchasedAt: null,
      purchaseTransactionId: null,
    }],
    repairs: [{
      ticketId: "k1",
      ticketNumber: "R-000001",
      accountId: "a1",
      createdAt: T(3),
      createdBy: "u4",
      closes: [{ toStatus: "picked_up", at: T(4), actorId: "u4" }],
    }],
  });
  assertEquals(timeline.map((e) => e.kind), [
    "received",
    "rented",
    "status_changed",
    "repair_opened",
    "repair_closed",
    "returned",
    "status_changed",
    "condition_changed",
    "sold",
    "status_changed",
  ]);
  assertEquals(timeline[2]!.details, { from: "in_stock", to: "rented", source: "rental" });
  assertEquals(timeline[7]!.details, { from: "new", to: "good", source: "return" });
  assertEquals(timeline[8]!.refs, { transactionId: "t1", accountId: "a1" });
});
