/**
 * A repair line item as written (API §9 "Line items"): labor or part; it may reference a
 * product (parts and consumables), whose name and price fill in a missing description and
 * unit price; a line whose product is a consumable is `isInternal` (internal job costing: in
 * `internalCost`, never in `customerTotal`, never on a receipt). Without a product, both
 * `description` and `unitPrice` are required.
 */
import { InvalidReferenceError, ValidationError } from "../errors.ts";
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
