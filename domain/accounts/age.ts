/**
 * Ages and minors: a member is a minor when younger than 18 on the store-local date
 * (`storeLocalDate()` in `../calendar.ts`).
 */

export const AGE_OF_MAJORITY = 18;

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
