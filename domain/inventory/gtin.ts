/**
 * GTINs (UPC-A, EAN-13, EAN-8, GTIN-14): the one check-digit rule, used by the shelf labels
 * (which barcode a product prints) and by the counter's scan (a misread barcode).
 */

/** Whether `digits` (8, 12, 13 or 14 digits) ends with its correct GTIN (mod 10) check digit. */
export function hasValidGtinCheckDigit(digits: string): boolean {
  if (!/^\d{8}$|^\d{12,14}$/.test(digits)) return false;
  let sum = 0;
  // Weights 3, 1, 3, ... from the digit left of the check digit, leftwards.
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}
