import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import { nextRepairStatus, REPAIR_STATUSES, type RepairStatus } from "./status_machine.ts";

/** API §9's table, written out independently of the code: every allowed `from>to` move. */
const ALLOWED = new Set([
  "new>in_transit",
  "new>intake",
  "new>cancelled",
  "in_transit>intake",
  "in_transit>cancelled",
  "intake>in_progress",
  "intake>pending_parts",
  "intake>cancelled",
  "in_progress>pending_parts",
  "in_progress>ready_for_pickup",
  "in_progress>cancelled",
  "pending_parts>in_progress",
  "pending_parts>cancelled",
  "ready_for_pickup>picked_up",
  "ready_for_pickup>delivered",
  "ready_for_pickup>in_progress",
]);

function refusal(run: () => unknown): string {
  const error = assertThrows(run, ConflictError) as ConflictError;
  return error.code;
}

Deno.test("nextRepairStatus() allows exactly API §9's moves over every pair of statuses", () => {
  assertEquals(REPAIR_STATUSES.length, 9);
  let allowed = 0;
  for (const from of REPAIR_STATUSES) {
    for (const to of REPAIR_STATUSES) {
      const action = { type: "move", to } as const;
      if (ALLOWED.has(`${from}>${to}`)) {
        assertEquals(nextRepairStatus(from, action), to, `${from} → ${to}`);
        allowed++;
      } else {
        assertEquals(refusal(() => nextRepairStatus(from, action)), "invalid_transition");
      }
    }
  }
  assertEquals(allowed, ALLOWED.size);
});

Deno.test("reopen takes only a cancelled ticket back to the status it had before", () => {
  for (const current of REPAIR_STATUSES) {
    for (const before of [...REPAIR_STATUSES, null] as (RepairStatus | null)[]) {
      const action = { type: "reopen", before } as const;
      if (current !== "cancelled") {
        assertEquals(refusal(() => nextRepairStatus(current, action)), "invalid_transition");
      } else {
        const expected = before === null || before === "cancelled" ? "new" : before;
        assertEquals(nextRepairStatus(current, action), expected);
      }
    }
  }
});

Deno.test("a completed payment picks a ticket up from any non-terminal status, never a cancelled one", () => {
  for (const current of REPAIR_STATUSES) {
    const action = { type: "paid" } as const;
    if (current === "cancelled") {
      assertEquals(refusal(() => nextRepairStatus(current, action)), "invalid_transition");
    } else if (current === "picked_up" || current === "delivered") {
      assertEquals(nextRepairStatus(current, action), current);
    } else {
      assertEquals(nextRepairStatus(current, action), "picked_up");
    }
  }
});
