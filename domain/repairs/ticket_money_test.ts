import { assert, assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertNotOverpaid,
  balanceDueCents,
  estimateExceeded,
  formatTicketNumber,
  repairPaymentLines,
  type TicketLine,
  ticketTotals,
} from "./ticket_money.ts";

const LINES: TicketLine[] = [
  {
    kind: "labor",
    description: "Bow rehair",
    quantity: 1,
    unitPriceCents: 4500,
    isInternal: false,
  },
  { kind: "part", description: "Strings", quantity: 2, unitPriceCents: 1250, isInternal: false },
  { kind: "part", description: "Rosin (shop)", quantity: 3, unitPriceCents: 199, isInternal: true },
];

Deno.test("ticketTotals() keeps internal (consumable) lines out of the customer total", () => {
  assertEquals(ticketTotals(LINES), { customerTotalCents: 7000, internalCostCents: 597 });
  assertEquals(ticketTotals([]), { customerTotalCents: 0, internalCostCents: 0 });
});

Deno.test("balanceDueCents() never goes below zero", () => {
  assertEquals(balanceDueCents(7000, 2500), 4500);
  assertEquals(balanceDueCents(7000, 7000), 0);
  assertEquals(balanceDueCents(5000, 7000), 0);
});

Deno.test("assertNotOverpaid() refuses a payment above the balance with 409 overpayment", () => {
  assertNotOverpaid("R-000001", 4500, 4500);
  assertNotOverpaid("R-000001", 0, 0);
  const error = assertThrows(() => assertNotOverpaid("R-000001", 4501, 4500), ConflictError);
  assertEquals((error as ConflictError).code, "overpayment");
});

Deno.test("estimateExceeded() compares with the approved estimate, else the current one, beyond the tolerance", () => {
  const base = { estimateCents: 10000, approvedCents: null, toleranceBp: 1000 };
  assertEquals(estimateExceeded({ ...base, customerTotalCents: 11000 }), false); // exactly +10 %
  assertEquals(estimateExceeded({ ...base, customerTotalCents: 11001 }), true);
  assertEquals(estimateExceeded({ ...base, customerTotalCents: 500 }), false);
  // The approved amount wins over a later, larger estimate.
  assertEquals(
    estimateExceeded({
      ...base,
      estimateCents: 20000,
      approvedCents: 10000,
      customerTotalCents: 12000,
    }),
    true,
  );
  assertEquals(
    estimateExceeded({
      ...base,
      estimateCents: null,
      approvedCents: 100,
      customerTotalCents: 999999,
    }),
    false,
  );
  assertEquals(estimateExceeded({ ...base, estimateCents: 0, customerTotalCents: 1 }), true);
  assertEquals(estimateExceeded({ ...base, toleranceBp: 0, customerTotalCents: 10001 }), true);
});

Deno.test("repairPaymentLines() copies the customer-facing lines until something is paid, then bills the balance", () => {
  assertEquals(repairPaymentLines("R-000007", LINES, 0), [
    {
      kind: "labor",
      description: "Bow rehair",
      quantity: 1,
      unitPrice: "45.00",
      taxCategory: "service",
    },
    { kind: "part", description: "Strings", quantity: 2, unitPrice: "12.50", taxCategory: "goods" },
  ]);
  assertEquals(repairPaymentLines("R-000007", LINES, 2000), [{
    kind: "labor",
    description: "Balance due, repair R-000007",
    quantity: 1,
    unitPrice: "50.00",
    taxCategory: "service",
  }]);
  assertEquals(repairPaymentLines("R-000007", LINES, 7000), []);
});

Deno.test("formatTicketNumber() pads to six digits and grows past them", () => {
  assertEquals(formatTicketNumber(123), "R-000123");
  assertEquals(formatTicketNumber(1234567), "R-1234567");
  assert(assertThrows(() => formatTicketNumber(0)) instanceof RangeError);
});
