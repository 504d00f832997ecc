/** Ages and minors: a member is a minor when younger than 18 on the store-local date. */

export const AGE_OF_MAJORITY = 18;

/** The calendar date (YYYY-MM-DD) of `instant` in the IANA time zone `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/**
 * Completed years between `dateOfBirth` and `onDate` (both YYYY-MM-DD). A 29 February
 * birthday completes its year on 1 March in common years.
 */
export function ageOn(dateOfBirth: string, onDate: string): number {
  const [by, bmd] = [Number(dateOfBirth.slice(0, 4)), dateOfBirth.slice(5)];
  const [ty, tmd] = [Number(onDate.slice(0, 4)), onDate.slice(5)];
  return ty - by - (tmd < bmd ? 1 : 0);
}

export function isMinorOn(dateOfBirth: string, onDate: string): boolean {
  return ageOn(dateOfBirth, onDate) < AGE_OF_MAJORITY;
}
