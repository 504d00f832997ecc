/** Rules of identity documents (member identifiers). */
import { ValidationError } from "../errors.ts";

/** Refuses an expiry date before the issue date (both YYYY-MM-DD; either may be unknown). */
export function assertIdentifierDates(
  dates: { issuedDate: string | null; expiresDate: string | null },
): void {
  if (dates.issuedDate && dates.expiresDate && dates.expiresDate < dates.issuedDate) {
    throw new ValidationError([
      { path: "expiresDate", message: "The expiry date is before the issue date" },
    ]);
  }
}
