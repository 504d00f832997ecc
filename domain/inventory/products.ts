/**
 * Product rules (pure): the consumable flag, which products carry units, which receipts
 * move the stock count, and when a price counts as changed. Money in integer cents.
 */
import { ConflictError, ValidationError } from "../errors.ts";

export const PRODUCT_TYPES = ["standard", "serialized", "rental", "repair", "consumable"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** "12.34" (or "-1.5", "7") → 1234 cents, without floating-point drift. */
export function toCents(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`Not an amount: "${amount}"`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

/** 1234 → "12.34". */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * The effective `isConsumable` of a product of `type`: `type: consumable` implies true
 * (an explicit `false` is refused); otherwise the requested flag, else the current one.
 */
export function resolveConsumableFlag(
  type: ProductType,
  requested: boolean | undefined,
  current = false,
): boolean {
  if (type === "consumable") {
    if (requested === false) {
      throw new ValidationError([{
        path: "isConsumable",
        message: "A product of type consumable is always consumable",
      }]);
    }
    return true;
  }
  return requested ?? current;
}

/** Serialized and rental products are tracked unit by unit. */
export function carriesUnits(type: ProductType): boolean {
  return type === "serialized" || type === "rental";
}

export function assertCarriesUnits(productId: string, type: ProductType): void {
  if (!carriesUnits(type)) {
    throw new ConflictError(
      "invalid_product_type",
      `Product "${productId}" is of type ${type}: only serialized and rental products have units`,
    );
  }
}

/**
 * A stock receipt increments `qtyOnHand` for non-serialized products; serialized products
 * receive units instead (API §7).
 */
export function receiptIncrementsStock(type: ProductType): boolean {
  return type !== "serialized";
}

/** True when the price moved (compared in cents, so "5" and "5.00" are the same price). */
export function priceChanged(previous: string, next: string): boolean {
  return toCents(previous) !== toCents(next);
}
