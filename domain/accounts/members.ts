/**
 * Rules of a member's date of birth and minor flag: a known date of birth decides whether the
 * member is a minor (on the store-local date); the manual `isMinor` flag counts only while no
 * date of birth is known, and cannot be set alongside one.
 */
import { ValidationError } from "../errors.ts";
import { isMinorOn } from "./age.ts";

/** Whether the member is a minor on `today`: by its date of birth when known, else its flag. */
export function memberIsMinor(
  member: { dateOfBirth: string | null; isMinor: boolean },
  today: string,
): boolean {
  return member.dateOfBirth ? isMinorOn(member.dateOfBirth, today) : member.isMinor;
}

/** Refuses a date of birth after `today` (YYYY-MM-DD, store-local). */
export function assertBornBy(dateOfBirth: string | null | undefined, today: string): void {
  if (dateOfBirth && dateOfBirth > today) {
    throw new ValidationError([{
      path: "dateOfBirth",
      message: "The date of birth is in the future",
    }]);
  }
}

/**
 * Refuses an `isMinor` given while the member has a date of birth: sent with it on creation,
 * or kept (or sent) on an update.
 */
export function assertMinorFlagSettable(
  change: "create" | "update",
  isMinorGiven: boolean,
  dateOfBirth: string | null | undefined,
): void {
  if (!isMinorGiven || !dateOfBirth) return;
  throw new ValidationError([{
    path: "isMinor",
    message: change === "create"
      ? "isMinor is derived from dateOfBirth and cannot be set with it"
      : "isMinor is derived from dateOfBirth; remove the date of birth to set it",
  }]);
}
