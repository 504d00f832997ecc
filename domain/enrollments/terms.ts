/**
 * An enrollment's terms: its dates (inclusive, open-ended without an end) and its rate per
 * billing interval, which defaults to the slot's rate preset, else the lesson type's.
 */
import { ValidationError } from "../errors.ts";

export const BILLING_INTERVALS = ["weekly", "monthly", "quarterly"] as const;
export type BillingInterval = typeof BILLING_INTERVALS[number];

/** A rate (2-decimal money string) per billing interval; null where unset. */
export type RatePresets = Record<BillingInterval, string | null>;

/** Whether the dates are in order: no end, or an end on or after the start. */
export function enrollmentDatesInOrder(startDate: string, endDate: string | null | undefined) {
  return endDate === null || endDate === undefined || endDate >= startDate;
}

/** Throws `validation_failed` (on endDate) when the enrollment would end before it starts. */
export function assertEnrollmentDates(startDate: string, endDate: string | null): void {
  if (!enrollmentDatesInOrder(startDate, endDate)) {
    throw new ValidationError([{
      path: "endDate",
      message: "endDate must not be before startDate",
    }]);
  }
}

/**
 * The rate of a new enrollment that names none: the slot's preset for the interval, else the
 * lesson type's (`lessonTypeRates` may be omitted when the slot has one), else none.
 */
export function defaultEnrollmentRate(
  interval: BillingInterval,
  slotRates: RatePresets,
  lessonTypeRates: RatePresets | undefined,
): string | null {
  return slotRates[interval] ?? lessonTypeRates?.[interval] ?? null;
}
