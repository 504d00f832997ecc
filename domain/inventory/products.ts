/**
 * Product rules (pure): the consumable flag, which products carry units, which receipts
 * move the stock count, and when a price counts as changed. Money in integer cents.
 */
import { ConflictError, ValidationError } from "../errors.ts";
import { parseMoney } from "../money.ts";

export const PRODUCT_TYPES = ["standard", "serialized", "rental", "repair", "consumable"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

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
  return parseMoney(previous, "price") !== parseMoney(next, "price");
}
