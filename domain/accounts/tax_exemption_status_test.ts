import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import {
  assertTaxExemptionEditable,
  assertTaxExemptionMove,
  canMoveTaxExemption,
  changedCertificateFields,
  isExemptionActive,
  statusAfterEdit,
} from "./tax_exemption_status.ts";

Deno.test("changedCertificateFields() names the certificate fields set to another value", () => {
  const current = { certificateNumber: "EX-1", issuingState: "OH", expiresDate: "2026-12-31" };
  assertEquals(changedCertificateFields(current, {}), []);
  assertEquals(changedCertificateFields(current, { ...current }), []);
  assertEquals(
    changedCertificateFields(current, { certificateNumber: "EX-2", expiresDate: null }),
    ["certificateNumber", "expiresDate"],
  );
  assertEquals(changedCertificateFields(current, { issuingState: undefined }), []);
});

Deno.test("statusAfterEdit() sends an approved exemption with a changed certificate back to pending", () => {
  assertEquals(statusAfterEdit("approved", ["expiresDate"]), "pending");
  assertEquals(statusAfterEdit("approved", []), "approved");
  assertEquals(statusAfterEdit("pending", ["certificateNumber"]), "pending");
});

Deno.test("canMoveTaxExemption() allows pending → approved and pending|approved → revoked", () => {
  assertEquals(canMoveTaxExemption("pending", "approved"), true);
  assertEquals(canMoveTaxExemption("pending", "revoked"), true);
  assertEquals(canMoveTaxExemption("approved", "revoked"), true);
});

Deno.test("canMoveTaxExemption() refuses every other move; revoked is final", () => {
  assertEquals(canMoveTaxExemption("approved", "approved"), false);
  assertEquals(canMoveTaxExemption("approved", "pending"), false);
  assertEquals(canMoveTaxExemption("revoked", "approved"), false);
  assertEquals(canMoveTaxExemption("revoked", "revoked"), false);
  assertEquals(canMoveTaxExemption("revoked", "pending"), false);
  assertEquals(canMoveTaxExemption("pending", "pending"), false);
});

Deno.test("assertTaxExemptionMove() throws invalid_transition for a refused move", () => {
  const error = assertThrows(() => assertTaxExemptionMove("t1", "revoked", "approved"));
  assertEquals(error instanceof ConflictError, true);
  assertEquals((error as ConflictError).code, "invalid_transition");
  assertTaxExemptionMove("t1", "pending", "approved");
});

Deno.test("isExemptionActive() needs approval and an expiry date not before the day", () => {
  assertEquals(isExemptionActive({ status: "approved", expiresDate: null }, "2026-01-01"), true);
  assertEquals(
    isExemptionActive({ status: "approved", expiresDate: "2026-01-01" }, "2026-01-01"),
    true,
  );
  assertEquals(
    isExemptionActive({ status: "approved", expiresDate: "2025-12-31" }, "2026-01-01"),
    false,
  );
  assertEquals(isExemptionActive({ status: "pending", expiresDate: null }, "2026-01-01"), false);
  assertEquals(isExemptionActive({ status: "revoked", expiresDate: null }, "2026-01-01"), false);
});

Deno.test("assertTaxExemptionEditable() refuses only a revoked exemption", () => {
  assertTaxExemptionEditable("t1", "pending");
  assertTaxExemptionEditable("t1", "approved");
  assertThrows(() => assertTaxExemptionEditable("t1", "revoked"), ConflictError);
});
