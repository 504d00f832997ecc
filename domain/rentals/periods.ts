/**
 * Billing periods of a rental (API §13). Period k starts at `startDate` + k weeks (weekly),
 * or + k calendar months on the same day of the month, clamped to the month's last day
 * (monthly: a rental started on Jan 31 is billed on Feb 28/29, Mar 31, Apr 30, ...; each
 * period is counted from the start date, so a short month never shifts the later ones).
 * A period ends the day before the next one starts (inclusive); its charge is due on its
 * first day.
 */
import { addDays, dayNumber } from "../calendar.ts";

export type BillingInterval = "monthly" | "weekly";

export interface BillingPeriod {
  /** 0 for the period that starts on the rental's start date. */
  index: number;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `date` plus `months` calendar months, on the same day, clamped to the month's last day. */
export function addMonthsClamped(date: string, months: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${
    String(d).padStart(2, "0")
  }`;
}

/** The first day of period `index`. */
export function periodStartOf(startDate: string, interval: BillingInterval, index: number): string {
  return interval === "weekly" ? addDays(startDate, 7 * index) : addMonthsClamped(startDate, index);
}

/** Period `index` with its inclusive end and due date. */
export function periodOf(
  startDate: string,
  interval: BillingInterval,
  index: number,
): BillingPeriod {
  const periodStart = periodStartOf(startDate, interval, index);
  return {
    index,
    periodStart,
    periodEnd: addDays(periodStartOf(startDate, interval, index + 1), -1),
    dueDate: periodStart,
  };
}

/**
 * The index of the period that starts on `periodStart` (a date this rental's periods start
 * on), or of the last period starting before it otherwise.
 */
export function periodIndexOf(
  startDate: string,
  interval: BillingInterval,
  periodStart: string,
): number {
  if (interval === "weekly") {
    return Math.floor((dayNumber(periodStart) - dayNumber(startDate)) / 7);
  }
  const months = (Number(periodStart.slice(0, 4)) - Number(startDate.slice(0, 4))) * 12 +
    Number(periodStart.slice(5, 7)) - Number(startDate.slice(5, 7));
  return periodStartOf(startDate, interval, months) > periodStart ? months - 1 : months;
}

/**
 * Every period from `fromIndex` on whose start is on or before `through` (none when the
 * rental starts after `through`).
 */
export function periodsThrough(
  startDate: string,
  interval: BillingInterval,
  through: string,
  fromIndex = 0,
): BillingPeriod[] {
  const periods: BillingPeriod[] = [];
  for (let index = Math.max(0, fromIndex);; index++) {
    const period = periodOf(startDate, interval, index);
    if (period.periodStart > through) return periods;
    periods.push(period);
  }
}
