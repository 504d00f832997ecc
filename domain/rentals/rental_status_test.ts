import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertCanBuyOut,
  assertCanDelete,
  assertCanMove,
  formatRentalNumber,
  isOverdue,
  isPastDue,
  RENTAL_STATUSES,
} from "./rental_status.ts";

Deno.test("only an active rental is returned, cancelled or bought out", () => {
  for (const status of RENTAL_STATUSES) {
    for (const move of ["return", "cancel", "buyout"] as const) {
      const rental = { rentalNumber: "L-000001", status };
      if (status === "active") assertCanMove(rental, move);
      else assertThrows(() => assertCanMove(rental, move), ConflictError);
    }
  }
  const error = assertThrows(
    () => assertCanBuyOut({ rentalNumber: "L-1", status: "active", rentToOwn: false }),
    ConflictError,
  );
  assertEquals(error.message.includes("not rent-to-own"), true);
  assertCanBuyOut({ rentalNumber: "L-1", status: "active", rentToOwn: true });
  assertThrows(() => assertCanDelete({ rentalNumber: "L-1", status: "active" }), ConflictError);
  assertCanDelete({ rentalNumber: "L-1", status: "returned" });
});

Deno.test("overdue: active and past the due date; past due: unpaid beyond the grace days", () => {
  assertEquals(isOverdue({ status: "active", dueDate: "2026-11-24" }, "2026-11-25"), true);
  assertEquals(isOverdue({ status: "active", dueDate: "2026-11-25" }, "2026-11-25"), false);
  assertEquals(isOverdue({ status: "returned", dueDate: "2026-01-01" }, "2026-11-25"), false);
  assertEquals(isOverdue({ status: "active", dueDate: null }, "2026-11-25"), false);
  assertEquals(isPastDue("2026-11-15", "2026-11-25", 10), false);
  assertEquals(isPastDue("2026-11-14", "2026-11-25", 10), true);
  assertEquals(isPastDue("2026-11-24", "2026-11-25", 0), true);
});

Deno.test("rental numbers: L- and at least six digits", () => {
  assertEquals(formatRentalNumber(123), "L-000123");
  assertEquals(formatRentalNumber(1_234_567), "L-1234567");
});
