import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertCanComplete,
  assertCanRefund,
  assertCanVoid,
  assertEditable,
  type TransactionStatus,
  type TransactionType,
} from "./transaction_status.ts";
import { preparePayment } from "./transaction_totals.ts";

function codeOf(fn: () => void): string {
  return (assertThrows(fn, ConflictError) as ConflictError).code;
}

Deno.test("assertEditable() allows changes only while pending", () => {
  assertEditable({ type: "sale", status: "pending" });
  assertEquals(
    codeOf(() => assertEditable({ type: "sale", status: "complete" })),
    "invalid_transition",
  );
  assertEquals(
    codeOf(() => assertEditable({ type: "sale", status: "voided" })),
    "invalid_transition",
  );
});

Deno.test("assertCanComplete() needs a pending transaction with nothing due", () => {
  assertCanComplete({ type: "sale", status: "pending", balanceDueCents: 0 });
  assertCanComplete({ type: "repair_payment", status: "pending", balanceDueCents: 0 });
  assertEquals(
    codeOf(() => assertCanComplete({ type: "sale", status: "pending", balanceDueCents: 1 })),
    "balance_due",
  );
  assertEquals(
    codeOf(() => assertCanComplete({ type: "sale", status: "pending", balanceDueCents: -1 })),
    "balance_due",
  );
  assertEquals(
    codeOf(() =>
      assertCanComplete({ id: "t1", type: "sale", status: "complete", balanceDueCents: 0 })
    ),
    "invalid_transition",
  );
  assertEquals(
    codeOf(() => assertCanComplete({ type: "sale", status: "voided", balanceDueCents: 0 })),
    "invalid_transition",
  );
});

Deno.test("assertCanVoid() voids pending ones, and complete ones only while their drawer is open", () => {
  assertCanVoid({ type: "sale", status: "pending", drawerSessionOpen: false });
  assertCanVoid({ type: "sale", status: "complete", drawerSessionOpen: true });
  assertCanVoid({ type: "repair_payment", status: "complete", drawerSessionOpen: true });
  assertEquals(
    codeOf(() => assertCanVoid({ type: "sale", status: "complete", drawerSessionOpen: false })),
    "invalid_transition",
  );
  assertEquals(
    codeOf(() => assertCanVoid({ type: "sale", status: "voided", drawerSessionOpen: true })),
    "invalid_transition",
  );
  assertEquals(
    codeOf(() => assertCanVoid({ type: "refund", status: "complete", drawerSessionOpen: true })),
    "invalid_transition",
  );
});

Deno.test("assertCanRefund() refunds only complete sales and repair payments", () => {
  assertCanRefund({ type: "sale", status: "complete" });
  assertCanRefund({ type: "repair_payment", status: "complete" });
  for (const status of ["pending", "voided"] as const) {
    assertEquals(codeOf(() => assertCanRefund({ type: "sale", status })), "invalid_transition");
  }
  assertEquals(
    codeOf(() => assertCanRefund({ type: "refund", status: "complete" })),
    "invalid_transition",
  );
});

/** Whether the assert of `action` lets the transaction through (the status table, as booleans). */
function allows(
  action: "edit" | "complete" | "void" | "refund",
  tx: { type: TransactionType; status: TransactionStatus; drawerSessionOpen: boolean },
): boolean {
  try {
    if (action === "edit") assertEditable(tx);
    if (action === "complete") assertCanComplete({ ...tx, balanceDueCents: 0 });
    if (action === "void") assertCanVoid(tx);
    if (action === "refund") assertCanRefund(tx);
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
}

Deno.test("the asserts match the status table for every type, status and drawer state", () => {
  const types: TransactionType[] = ["sale", "repair_payment", "refund"];
  const statuses: TransactionStatus[] = ["pending", "complete", "voided"];
  const allowed: string[] = [];
  for (const type of types) {
    for (const status of statuses) {
      for (const drawerSessionOpen of [true, false]) {
        for (const action of ["edit", "complete", "void", "refund"] as const) {
          if (allows(action, { type, status, drawerSessionOpen })) {
            allowed.push(`${type}/${status}/${drawerSessionOpen ? "open" : "closed"}/${action}`);
          }
        }
      }
    }
  }
  const expected: string[] = [];
  for (const type of ["sale", "repair_payment"]) {
    for (const drawer of ["open", "closed"]) {
      expected.push(`${type}/pending/${drawer}/edit`);
      expected.push(`${type}/pending/${drawer}/complete`);
      expected.push(`${type}/pending/${drawer}/void`);
      if (drawer === "open") expected.push(`${type}/complete/open/void`);
      expected.push(`${type}/complete/${drawer}/refund`);
    }
  }
  // Refund transactions are created complete and are final; a pending one could still be edited.
  expected.push("refund/pending/open/edit", "refund/pending/closed/edit");
  assertEquals(allowed.sort(), expected.sort());
});

Deno.test("refusals speak in money, not cents: balance still due, overpayment", () => {
  const due = assertThrows(
    () => assertCanComplete({ id: "t1", status: "pending", type: "sale", balanceDueCents: 1234 }),
    ConflictError,
  );
  assertEquals(due.message, 'Cannot complete transaction "t1": 12.34 is still due');
  const numbered = assertThrows(
    () =>
      assertCanComplete({
        id: "t1",
        number: 42,
        type: "sale",
        status: "complete",
        balanceDueCents: 0,
      }),
    ConflictError,
  );
  assertEquals(numbered.message, "Cannot complete transaction S-0000042: it is complete");
  const over = assertThrows(
    () => preparePayment({ method: "card", amountCents: 1235 }, 1234),
    ConflictError,
  );
  assertEquals(over.message, "A payment of 12.35 exceeds the balance due of 12.34");
});
