/**
 * What may be sold and how a new line is filled in (API §8 "Transactions"):
 * - a line may name a product, a unit of a product, or neither (a free line, which then
 *   needs `description` and `unitPrice`); a unit must exist and belong to the named product;
 * - consumable products (internal job costing) and inactive products are not sellable (400
 *   `not_sellable`);
 * - a line with a unit has quantity 1, a unit appears once on a sale, and it must be in stock
 *   (409 `unit_unavailable`), when added and again when the sale completes;
 * - defaults: `kind` sale, `description` the product's name, `unitPrice` its price,
 *   `taxCategory` service for labor, else the product's, else goods;
 * - only a `repair_payment` refers to a repair ticket, and it must; a cancelled ticket cannot
 *   be paid (409 `invalid_transition`).
 */
import {
  BadInputError,
  ConflictError,
  type FieldIssue,
  InvalidReferenceError,
  ValidationError,
} from "../errors.ts";
import { formatMoney, parseMoney } from "../money.ts";
import type { TransactionType } from "./transaction_status.ts";
import { defaultTaxCategory, type LineKind, type TaxCategory } from "./transaction_totals.ts";

/** A new line as requested (money as decimal text). */
export interface SaleLineInput {
  kind?: LineKind;
  productId?: string;
  unitId?: string;
  description?: string;
  quantity: number;
  unitPrice?: string;
  taxCategory?: TaxCategory;
}

/** What the rules need to know of a product a line refers to. */
export interface SaleProduct {
  id: string;
  name: string;
  price: string;
  type: string;
  isConsumable: boolean;
  isActive: boolean;
  taxCategory: TaxCategory;
}

/** What the rules need to know of a unit a line refers to. */
export interface SaleUnit {
  id: string;
  productId: string;
  status: string;
  /** The instrument's serial number (a refusal names the unit by it). */
  serialNumber?: string | null;
}

/** How a refusal names a unit: by its serial number, else its id. */
function unitName(unit: { id: string; serialNumber?: string | null }): string {
  return unit.serialNumber ? `Unit ${unit.serialNumber}` : `Unit "${unit.id}"`;
}

/** A new line with every default applied and every reference checked. */
export interface SaleLine {
  kind: LineKind;
  productId: string | null;
  unitId: string | null;
  description: string;
  quantity: number;
  /** Normalized decimal text ("12.50"). */
  unitPrice: string;
  taxCategory: TaxCategory;
  isConsumable: boolean;
}

/** The request path of a line's field, for error issues (`items[0].unitId`). */
export type LinePath = (index: number, field: string) => string;

/**
 * The products that `inputs` refer to, directly or through their unit. Checks first that
 * each unit exists (`units` holds those found) and belongs to the line's product (400
 * `invalid_reference`).
 */
export function productIdsOfLines(
  inputs: readonly SaleLineInput[],
  units: ReadonlyMap<string, SaleUnit>,
  pathOf: LinePath,
): string[] {
  const productIds = new Set<string>();
  inputs.forEach((input, i) => {
    if (input.unitId) {
      const unit = units.get(input.unitId);
      if (!unit) {
        throw new InvalidReferenceError(
          pathOf(i, "unitId"),
          `Unit "${input.unitId}" does not exist`,
        );
      }
      if (input.productId && input.productId !== unit.productId) {
        throw new InvalidReferenceError(
          pathOf(i, "unitId"),
          `Unit "${input.unitId}" is not a unit of product "${input.productId}"`,
        );
      }
      productIds.add(unit.productId);
    }
    if (input.productId) productIds.add(input.productId);
  });
  return [...productIds];
}

/** Consumable or inactive products → 400 `not_sellable`. */
export function assertSellable(product: SaleProduct, path: string): void {
  if (product.isConsumable || product.type === "consumable") {
    throw new BadInputError(
      "not_sellable",
      `Product "${product.name}" is a consumable (internal job costing) and cannot be sold`,
      [{ path, message: "Consumable products are not sellable" }],
    );
  }
  if (!product.isActive) {
    throw new BadInputError(
      "not_sellable",
      `Product "${product.name}" is inactive and cannot be sold`,
      [{ path, message: "Inactive products are not sellable" }],
    );
  }
}

/** A line with a unit has quantity 1. */
export function assertUnitLineQuantity(quantity: number, path: string): void {
  if (quantity !== 1) {
    throw new ValidationError([{ path, message: "A line with a unit has quantity 1" }]);
  }
}

/** A unit is on a sale at most once. */
export function assertUnitNotOnSale(unitId: string | null, unitIdsOnSale: Iterable<string | null>) {
  if (unitId && [...unitIdsOnSale].includes(unitId)) {
    throw new ValidationError([{ path: "unitId", message: "The unit is already on this sale" }]);
  }
}

/**
 * New lines with their defaults, after {@link productIdsOfLines}: `products` holds the
 * (sellable or not) products found, `units` the units found.
 */
export function resolveSaleLines(
  inputs: readonly SaleLineInput[],
  units: ReadonlyMap<string, SaleUnit>,
  products: ReadonlyMap<string, SaleProduct>,
  pathOf: LinePath,
): SaleLine[] {
  const seenUnits = new Set<string>();
  return inputs.map((input, i) => {
    const unit = input.unitId ? units.get(input.unitId) : undefined;
    const productId = input.productId ?? unit?.productId ?? null;
    const product = productId ? products.get(productId) : undefined;
    if (productId && !product) {
      throw new InvalidReferenceError(
        pathOf(i, "productId"),
        `Product "${productId}" does not exist`,
      );
    }
    if (product) assertSellable(product, pathOf(i, "productId"));
    if (unit) {
      assertUnitLineQuantity(input.quantity, pathOf(i, "quantity"));
      if (seenUnits.has(unit.id)) {
        throw new ValidationError([{ path: pathOf(i, "unitId"), message: "Unit listed twice" }]);
      }
      seenUnits.add(unit.id);
      if (unit.status !== "in_stock") {
        throw new ConflictError(
          "unit_unavailable",
          `${unitName(unit)}${product ? ` of ${product.name}` : ""} is not in stock ` +
            `(status ${unit.status})`,
        );
      }
    }
    const description = input.description ?? product?.name;
    const unitPrice = input.unitPrice ?? product?.price;
    const issues: FieldIssue[] = [];
    if (description === undefined) {
      issues.push({ path: pathOf(i, "description"), message: "Required without productId" });
    }
    if (unitPrice === undefined) {
      issues.push({ path: pathOf(i, "unitPrice"), message: "Required without productId" });
    }
    if (issues.length > 0) throw new ValidationError(issues);
    const kind = input.kind ?? "sale";
    return {
      kind,
      productId,
      unitId: unit?.id ?? null,
      description: description!,
      quantity: input.quantity,
      unitPrice: formatMoney(parseMoney(unitPrice!)),
      taxCategory: input.taxCategory ??
        (kind === "labor" ? "service" : product?.taxCategory ?? defaultTaxCategory(kind)),
      isConsumable: false,
    };
  });
}

/** At completion, the units of the sale (locked) must still be in stock. */
export function assertUnitsStillInStock(
  units: ReadonlyArray<{ id: string; status: string; serialNumber?: string | null }>,
) {
  for (const unit of units) {
    if (unit.status !== "in_stock") {
      throw new ConflictError(
        "unit_unavailable",
        `${unitName(unit)} is no longer in stock (status ${unit.status})`,
      );
    }
  }
}

/** Only a `repair_payment` refers to a repair ticket, and it must. */
export function assertRepairTicketReference(
  type: TransactionType,
  repairTicketId: string | undefined,
): void {
  if (type === "repair_payment" && !repairTicketId) {
    throw new ValidationError([{
      path: "repairTicketId",
      message: "Required for a repair_payment transaction",
    }]);
  }
  if (type !== "repair_payment" && repairTicketId) {
    throw new ValidationError([{
      path: "repairTicketId",
      message: "Only repair_payment transactions refer to a repair ticket",
    }]);
  }
}

/**
 * A sale starts with its lines; only a repair_payment may leave them to its ticket, and a
 * rental_payment takes its lines from its charges (it has no `items`).
 */
export function assertItemsGiven(type: TransactionType, items: readonly unknown[] | undefined) {
  if (type === "rental_payment") {
    if (items !== undefined) {
      throw new ValidationError([{
        path: "items",
        message: "A rental_payment has one line per rental charge: give rentalChargeIds instead",
      }]);
    }
    return;
  }
  if (items === undefined && type !== "repair_payment") {
    throw new ValidationError([{ path: "items", message: "Required" }]);
  }
}

/** Only a `rental_payment` names rental charges, and it must (each at most once). */
export function assertRentalChargeReference(
  type: TransactionType,
  rentalChargeIds: readonly string[] | undefined,
): void {
  if (type === "rental_payment" && !rentalChargeIds) {
    throw new ValidationError([{
      path: "rentalChargeIds",
      message: "Required for a rental_payment transaction",
    }]);
  }
  if (type !== "rental_payment" && rentalChargeIds) {
    throw new ValidationError([{
      path: "rentalChargeIds",
      message: "Only rental_payment transactions pay rental charges",
    }]);
  }
  if (rentalChargeIds && new Set(rentalChargeIds).size !== rentalChargeIds.length) {
    throw new ValidationError([{
      path: "rentalChargeIds",
      message: "A charge may be named only once",
    }]);
  }
}

/** A repair ticket can be paid when it exists (`status` known) and is not cancelled. */
export function assertRepairTicketPayable(ticketId: string, status: string | undefined): void {
  if (status === undefined) {
    throw new InvalidReferenceError("repairTicketId", `Repair ticket "${ticketId}" does not exist`);
  }
  if (status === "cancelled") {
    throw new ConflictError(
      "invalid_transition",
      `Repair ticket "${ticketId}" is cancelled and cannot be paid`,
    );
  }
}
