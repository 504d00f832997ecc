/**
 * A repair line item as written (API §9 "Line items"): labor or part; it may reference a
 * product (parts and consumables), whose name and price fill in a missing description and
 * unit price; a line whose product is a consumable is `isInternal` (internal job costing: in
 * `internalCost`, never in `customerTotal`, never on a receipt). Without a product, both
 * `description` and `unitPrice` are required.
 *
 * Repair parts take stock (API §22 "Repair parts"): a line naming a product takes its quantity
 * out of stock when added, gives it back when deleted and moves the difference when its
 * quantity or product changes. A line records what it holds ({@link PartStock}), and every
 * move goes from what it holds to what it holds next ({@link partStockMoves}), never from
 * its product and quantity: a line added before parts took stock holds nothing, so deleting
 * it gives nothing back ({@link partStockAfterEdit} says what an edit makes it hold).
 * Products tracked unit by unit (serialized, rental) cannot be named: a unit is not taken
 * this way (it is sold at the POS); an older line naming one keeps it through an edit and
 * holds nothing.
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

export interface ResolveOptions {
  /** Where the line sits in the request body (`items[0]`), for the paths of errors. */
  path?: string;
  /**
   * The product the line names already (an edit): keeping it is never refused, as a line
   * added before repair parts took stock may name a serialized or rental product.
   */
  kept?: string | null;
}

/** Fills in the product's defaults and `isInternal`; `product` is the one `productId` names. */
export function resolveLineItem(
  input: LineItemInput,
  product: LineItemProduct | undefined,
  { path = "", kept = null }: ResolveOptions = {},
): ResolvedLineItem {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  if (input.productId && !product) {
    throw new InvalidReferenceError(at("productId"), `Product "${input.productId}" does not exist`);
  }
  if (product && product.id !== kept && carriesUnits(product.type as ProductType)) {
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

/**
 * What a line holds from stock: `quantity` of `productId` taken out of the product's count
 * (nothing: `NO_PART_STOCK`).
 */
export interface PartStock {
  productId: string | null;
  quantity: number;
}

export const NO_PART_STOCK: PartStock = Object.freeze({ productId: null, quantity: 0 });

/**
 * What a line naming `product` (the product its `productId` names) takes when it takes
 * stock: its quantity of a counted product; nothing without a product or for one tracked
 * unit by unit.
 */
export function partStockOf(
  line: { quantity: number },
  product: { id: string; type: string } | undefined,
): PartStock {
  if (!product || carriesUnits(product.type as ProductType)) return NO_PART_STOCK;
  return { productId: product.id, quantity: line.quantity };
}

/**
 * What a line holds after an edit from `current` (holding `current.stock`) to `next`: an
 * edit that changes neither its product nor its quantity keeps what it holds (nothing moves,
 * whatever the other fields do); one that changes either takes the new quantity of the new
 * product as if the line were added now ({@link partStockOf}), having given back what it
 * held. So a line from before repair parts took stock (holding nothing) takes its full new
 * quantity when its quantity or product first changes.
 */
export function partStockAfterEdit(
  current: { productId: string | null; quantity: number; stock: PartStock },
  next: { productId: string | null; quantity: number },
  product: { id: string; type: string } | undefined,
): PartStock {
  if (next.productId === current.productId && next.quantity === current.quantity) {
    return current.stock;
  }
  return partStockOf(next, product);
}

/**
 * The stock moves of a ticket's lines going from holding `before` to holding `after` (a line
 * added: none before; deleted: none after; changed: what it held and what it holds next):
 * what `before` held comes back (+), what `after` holds goes out (−), summed per product, so
 * a quantity change moves the difference and a product change gives the old product back and
 * takes the new one. Products that do not move (Δ 0) are left out, in the order they first
 * appear.
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
