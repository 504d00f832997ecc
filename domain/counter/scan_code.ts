/**
 * What a scanned or typed code can be (API §17 `GET /scan/:code`): the pure reading of the
 * code into the normalised values each kind of record is looked up by.
 *
 * - Every code is trimmed and compared case-insensitively (`text`: SKU, serial number).
 * - A product's UPC is compared in its canonical barcode form (`canonicalBarcode`): a 12-digit
 *   UPC-A is the 13-digit EAN-13 with a leading 0, so either form finds a product stored with
 *   either. The migration's `products_upc_code_idx` indexes exactly this expression.
 * - The human numbers `S-0001234` (receipt), `R-000123` (repair ticket), `L-000123` (rental)
 *   and `A-000001` (account) are read with or without the dash and the leading zeros.
 * - A 12- or 13-digit all-numeric code whose check digit is wrong is flagged: when nothing
 *   matches it, the answer is `invalid_check_digit` rather than "not found" (a misread scan).
 */
import { hasValidGtinCheckDigit } from "../inventory/gtin.ts";

/** The longest code read (a serial number or SKU is far shorter). */
export const MAX_SCAN_CODE_LENGTH = 128;

export interface ScanCode {
  /** Trimmed and lower-cased: SKU and serial numbers are compared with it. */
  text: string;
  /** Canonical barcode form of the code, compared with products' canonical UPC. */
  barcode: string;
  /** A 12/13-digit numeric code whose GS1 check digit is wrong. */
  badCheckDigit: boolean;
  /** `S-0001234` → 1234: a transaction's sequence number. */
  receiptNumber: number | null;
  /** `R-123` → 123: a repair ticket's sequence number. */
  ticketNumber: number | null;
  /** `L-123` → 123: a rental's sequence number. */
  rentalNumber: number | null;
  /** `A-1` → 1: an account's sequence number. */
  accountNumber: number | null;
}

/**
 * The canonical form a UPC is compared in: a 12-digit UPC-A gets the EAN-13 leading 0,
 * anything else is trimmed and lower-cased. Mirrored by SQL in the products' index.
 */
export function canonicalBarcode(value: string): string {
  const trimmed = value.trim();
  return /^[0-9]{12}$/.test(trimmed) ? `0${trimmed}` : trimmed.toLowerCase();
}

/** `prefix-000123` (dash and zeros optional) → 123; anything else → null. */
function sequenceNumber(text: string, prefix: string): number | null {
  const match = new RegExp(`^${prefix}-?([0-9]{1,15})$`).exec(text);
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Reads a code; null when nothing is left after trimming. */
export function readScanCode(raw: string): ScanCode | null {
  const text = raw.trim().toLowerCase();
  if (text === "") return null;
  const numeric12or13 = /^[0-9]{12,13}$/.test(text);
  return {
    text,
    barcode: canonicalBarcode(text),
    badCheckDigit: numeric12or13 && !hasValidGtinCheckDigit(text),
    receiptNumber: sequenceNumber(text, "s"),
    ticketNumber: sequenceNumber(text, "r"),
    rentalNumber: sequenceNumber(text, "l"),
    accountNumber: sequenceNumber(text, "a"),
  };
}
