/**
 * We never store a full card number (PAN). `findCardNumber()` spots one anywhere in a
 * request body: a run of 13–19 digits, optionally grouped by single separators, that passes
 * the Luhn check. The text is normalised first, so look-alikes do not slip through: NFKC
 * (full-width digits, no-break and other Unicode spaces), digits of any script, invisible
 * format characters dropped; a separator is any space, any dash or a dot-like mark.
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

/** Invisible format characters (zero-width space and joiners, soft hyphen, BOM, ...). */
const INVISIBLE = /\p{Cf}/gu;
/** A decimal digit of any script other than ASCII (Arabic-Indic, Devanagari, ...). */
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
/** One separator between digit groups: any space, any dash or minus, a dot-like mark. */
const SEPARATOR = "[\\s\\p{Pd}\\u2212.\\u00B7\\u2022\\u2219\\u22C5\\u30FB]";
/** A run of digits where single separators may split groups. */
const DIGIT_RUN = new RegExp(`\\d(?:${SEPARATOR}?\\d)*`, "gu");
const SEPARATOR_ONCE = new RegExp(SEPARATOR, "u");

/**
 * The value of a decimal digit of any script. Unicode encodes every script's digits as a
 * contiguous run from 0 to 9 (a stability guarantee), so the value is the distance from the
 * start of the run, modulo 10 (a few runs hold several digit sets back to back).
 */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!;
  let start = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

/**
 * `text` as the card check reads it: NFKC (full-width digits and Unicode spaces become ASCII
 * ones), invisible format characters removed, digits of every script as ASCII digits.
 */
export function normaliseForCardCheck(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "")
    .replace(NON_ASCII_DIGIT, (digit) => String(digitValue(digit)));
}

/**
 * Whether `text` holds a card number: after `normaliseForCardCheck`, each maximal digit run
 * (groups joined by single separators) is checked whole, and so is every stretch of
 * consecutive groups within it (so `4111 1111 1111 1111 123` is caught); a stretch counts when
 * it has 13–19 digits and passes Luhn. An ungrouped run longer than 19 digits is not a card
 * number.
 */
export function containsCardNumber(text: string): boolean {
  for (const match of normaliseForCardCheck(text).matchAll(DIGIT_RUN)) {
    const groups = match[0].split(SEPARATOR_ONCE);
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
