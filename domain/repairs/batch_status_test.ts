import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertBatchTakesTickets,
  BATCH_STATUSES,
  type BatchAction,
  nextBatchStatus,
} from "./batch_status.ts";

const ALLOWED: Record<string, string> = {
  "draft:submit": "submitted",
  "submitted:approve": "approved",
  "submitted:reject": "rejected",
};

Deno.test("batches move draft → submitted → approved | rejected and nothing else", () => {
  for (const status of BATCH_STATUSES) {
    for (const action of ["submit", "approve", "reject"] as BatchAction[]) {
      const expected = ALLOWED[`${status}:${action}`];
      if (expected) {
        assertEquals(nextBatchStatus(status, action), expected);
      } else {
        const error = assertThrows(() => nextBatchStatus(status, action), ConflictError);
        assertEquals((error as ConflictError).code, "invalid_transition");
      }
    }
  }
});

Deno.test("only a draft batch takes or gives up tickets", () => {
  assertBatchTakesTickets({ name: "School", status: "draft" });
  for (const status of ["submitted", "approved", "rejected"] as const) {
    const error = assertThrows(() => assertBatchTakesTickets({ name: "School", status }));
    assertEquals((error as ConflictError).code, "invalid_transition");
  }
});
