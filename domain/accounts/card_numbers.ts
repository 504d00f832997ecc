/**
 * We never store a full card number (PAN). `findCardNumber()` spots one anywhere in a
 * request body: a run of 13–19 digits, optionally grouped by single spaces or dashes, that
 * passes the Luhn check.
 */
import { ValidationError } from "../errors.ts";

/** The Luhn (mod 10) check over a string of digits. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** A run of digits where single spaces or dashes may separate groups. */
const DIGIT_RUN = /\d(?:[ -]?\d)*/g;

/**
 * Whether `text` holds a card number: each maximal digit run (groups joined by single spaces
 * or dashes) is checked whole, and so is every stretch of consecutive groups within it (so
 * `4111 1111 1111 1111 123` is caught); a stretch counts when it has 13–19 digits and passes
 * Luhn. An ungrouped run longer than 19 digits is not a card number.
 */
export function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const groups = match[0].split(/[ -]/);
    for (let start = 0; start < groups.length; start++) {
      let digits = "";
      for (let end = start; end < groups.length; end++) {
        digits += groups[end];
        if (digits.length > 19) break;
        if (digits.length >= 13 && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}

/**
 * The path (`brand`, `notes.0`) of the first string anywhere in `value` that holds a card
 * number, or undefined.
 */
export function findCardNumber(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return containsCardNumber(value) ? path.join(".") : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findCardNumber(value[i], [...path, String(i)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const found = findCardNumber(child, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Refuses (400) a body holding a full card number anywhere, naming the field, not the number. */
export function assertNoCardNumber(body: unknown): void {
  const path = findCardNumber(body);
  if (path !== undefined) {
    throw new ValidationError([{
      path,
      message: "Looks like a full card number; store only brand, last4 and the processor's token",
    }]);
  }
}
