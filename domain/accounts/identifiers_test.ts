import { assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import { assertIdentifierDates } from "./identifiers.ts";

Deno.test("assertIdentifierDates() refuses an expiry before the issue date, not on it", () => {
  assertIdentifierDates({ issuedDate: "2026-01-01", expiresDate: "2026-01-01" });
  assertIdentifierDates({ issuedDate: null, expiresDate: "2020-01-01" });
  assertIdentifierDates({ issuedDate: "2026-01-01", expiresDate: null });
  assertThrows(
    () => assertIdentifierDates({ issuedDate: "2026-01-02", expiresDate: "2026-01-01" }),
    ValidationError,
  );
});
