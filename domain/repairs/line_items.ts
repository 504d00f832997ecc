/**
 * A repair line item as written (API §9 "Line items"): labor or part; it may reference a
 * product (parts and consumables), whose name and price fill in a missing description and
 * unit price; a line whose product is a consumable is `isInternal` (internal job costing: in
 * `internalCost`, never in `customerTotal`, never on a receipt). Without a product, both
 * `description` and `unitPrice` are required.
 *
 * Repair parts take stock (API §22 "Repair parts"): a line naming a product takes its quantity
 * out of stock when added, gives it back when deleted and moves the difference when its
 * quantity or product changes ({@link partStockMoves}). Products tracked unit by unit
 * (serialized, rental) cannot be named: a unit is not taken this way (it is sold at the POS).
 */
import { BadInputError, InvalidReferenceError, ValidationError } from "../errors.ts";
import { carriesUnits, type ProductType } from "../inventory/products.ts";
import type { RepairLineKind } from "./ticket_money.ts";

export interface LineItemProduct {
  id: string;
  name: string;
  price: string;
  type: string;
  isConsumable: boolean;
}

export interface LineItemInput {
  kind: RepairLineKind;
  description?: string | null;
  quantity: number;
  unitPrice?: string | null;
  productId?: string | null;
}

export interface ResolvedLineItem {
  kind: RepairLineKind;
  description: string;
  quantity: number;
  unitPrice: string;
  productId: string | null;
  isInternal: boolean;
}

/** Fills in the product's defaults and `isInternal`; `product` is the one `productId` names. */
export function resolveLineItem(
  input: LineItemInput,
  product: LineItemProduct | undefined,
  path = "",
): ResolvedLineItem {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  if (input.productId && !product) {
    throw new InvalidReferenceError(at("productId"), `Product "${input.productId}" does not exist`);
  }
  if (product && carriesUnits(product.type as ProductType)) {
    const message = `Product "${product.id}" is ${product.type}: its units are not taken by a ` +
      "repair line; sell the unit at the POS (an item of the repair payment with its unitId)";
    throw new BadInputError("invalid_product_type", message, [{ path: at("productId"), message }]);
  }
  const description = input.description ?? product?.name;
  const unitPrice = input.unitPrice ?? product?.price;
  const missing = [
    ...(description === undefined ? [at("description")] : []),
    ...(unitPrice === undefined ? [at("unitPrice")] : []),
  ];
  if (missing.length > 0) {
    throw new ValidationError(
      missing.map((p) => ({ path: p, message: "Required when the line names no product" })),
    );
  }
  return {
    kind: input.kind,
    description: description!,
    quantity: input.quantity,
    unitPrice: unitPrice!,
    productId: product?.id ?? null,
    isInternal: product !== undefined && (product.isConsumable || product.type === "consumable"),
  };
}

/** What a line takes from stock: `quantity` of its product (nothing without a product). */
export interface PartStock {
  productId: string | null;
  quantity: number;
}

/**
 * The stock moves of a ticket's lines going from `before` to `after` (a line added: none
 * before; deleted: none after; changed: the old line and the new one): what `before` took
 * comes back (+), what `after` takes goes out (−), summed per product, so a quantity change
 * moves the difference and a product change gives the old product back and takes the new
 * one. Products that do not move (Δ 0) are left out, in the order they first appear.
 */
export function partStockMoves(
  before: readonly PartStock[],
  after: readonly PartStock[],
): Array<{ productId: string; delta: number }> {
  const deltas = new Map<string, number>();
  const add = (lines: readonly PartStock[], sign: 1 | -1) => {
    for (const { productId, quantity } of lines) {
      if (productId) deltas.set(productId, (deltas.get(productId) ?? 0) + sign * quantity);
    }
  };
  add(before, 1);
  add(after, -1);
  return [...deltas.entries()].filter(([, delta]) => delta !== 0)
    .map(([productId, delta]) => ({ productId, delta }));
}
