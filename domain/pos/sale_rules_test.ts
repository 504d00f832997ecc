import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { BadInputError, ConflictError, InvalidReferenceError, ValidationError } from "../errors.ts";
import {
  assertRepairTicketPayable,
  assertRepairTicketReference,
  assertUnitLineQuantity,
  assertUnitNotOnSale,
  assertUnitsStillInStock,
  productIdsOfLines,
  resolveSaleLines,
  type SaleLineInput,
  type SaleProduct,
  type SaleUnit,
} from "./sale_rules.ts";

const path = (i: number, field: string) => `items[${i}].${field}`;

const guitar: SaleProduct = {
  id: "p-guitar",
  name: "Guitar",
  price: "500",
  type: "serialized",
  isConsumable: false,
  isActive: true,
  taxCategory: "goods",
};
const strings: SaleProduct = { ...guitar, id: "p-strings", name: "Strings", price: "7.5" };
const glue: SaleProduct = { ...guitar, id: "p-glue", name: "Glue", type: "consumable" };
const oldModel: SaleProduct = { ...guitar, id: "p-old", name: "Old model", isActive: false };
const inStock: SaleUnit = { id: "u-1", productId: "p-guitar", status: "in_stock" };
const sold: SaleUnit = { id: "u-2", productId: "p-guitar", status: "sold" };

const units = new Map([inStock, sold].map((u) => [u.id, u]));
const products = new Map([guitar, strings, glue, oldModel].map((p) => [p.id, p]));

function resolve(inputs: SaleLineInput[]) {
  productIdsOfLines(inputs, units, path);
  return resolveSaleLines(inputs, units, products, path);
}

function issuesOf(fn: () => unknown) {
  return (assertThrows(fn, ValidationError) as ValidationError).issues;
}

Deno.test("productIdsOfLines() collects products named directly or through a unit", () => {
  assertEquals(
    productIdsOfLines(
      [{ unitId: "u-1", quantity: 1 }, { productId: "p-strings", quantity: 2 }],
      units,
      path,
    ),
    ["p-guitar", "p-strings"],
  );
});

Deno.test("productIdsOfLines() refuses an unknown unit and a unit of another product", () => {
  const unknown = assertThrows(
    () => productIdsOfLines([{ unitId: "u-9", quantity: 1 }], units, path),
    InvalidReferenceError,
  ) as InvalidReferenceError;
  assertEquals(unknown.issues?.[0]?.path, "items[0].unitId");
  const other = assertThrows(
    () => productIdsOfLines([{ productId: "p-strings", unitId: "u-1", quantity: 1 }], units, path),
    InvalidReferenceError,
  );
  assertEquals(other.message, 'Unit "u-1" is not a unit of product "p-strings"');
});

Deno.test("resolveSaleLines() fills in the product's name, price and tax category", () => {
  assertEquals(resolve([{ productId: "p-strings", quantity: 2 }]), [{
    kind: "sale",
    productId: "p-strings",
    unitId: null,
    description: "Strings",
    quantity: 2,
    unitPrice: "7.50",
    taxCategory: "goods",
    isConsumable: false,
  }]);
  const [labor] = resolve([{ kind: "labor", description: "Setup", unitPrice: "40", quantity: 1 }]);
  assertEquals([labor?.productId, labor?.taxCategory, labor?.unitPrice], [
    null,
    "service",
    "40.00",
  ]);
  const [unit] = resolve([{ unitId: "u-1", quantity: 1, unitPrice: "450" }]);
  assertEquals([unit?.productId, unit?.unitId, unit?.unitPrice], ["p-guitar", "u-1", "450.00"]);
});

Deno.test("resolveSaleLines() refuses consumable and inactive products as not_sellable", () => {
  for (const productId of ["p-glue", "p-old"]) {
    const error = assertThrows(
      () => resolve([{ productId, quantity: 1 }]),
      BadInputError,
    ) as BadInputError;
    assertEquals([error.code, error.issues?.[0]?.path], ["not_sellable", "items[0].productId"]);
  }
});

Deno.test("resolveSaleLines() refuses an unknown product", () => {
  const error = assertThrows(
    () => resolve([{ productId: "p-none", quantity: 1 }]),
    InvalidReferenceError,
  ) as InvalidReferenceError;
  assertEquals(error.issues?.[0]?.path, "items[0].productId");
});

Deno.test("resolveSaleLines() needs quantity 1, one line per unit, and a unit in stock", () => {
  assertEquals(issuesOf(() => resolve([{ unitId: "u-1", quantity: 2 }])), [{
    path: "items[0].quantity",
    message: "A line with a unit has quantity 1",
  }]);
  assertEquals(
    issuesOf(() => resolve([{ unitId: "u-1", quantity: 1 }, { unitId: "u-1", quantity: 1 }])),
    [{ path: "items[1].unitId", message: "Unit listed twice" }],
  );
  const error = assertThrows(
    () => resolve([{ unitId: "u-2", quantity: 1 }]),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "unit_unavailable");
});

Deno.test("resolveSaleLines() needs description and unitPrice on a line without a product", () => {
  assertEquals(issuesOf(() => resolve([{ quantity: 1 }])), [
    { path: "items[0].description", message: "Required without productId" },
    { path: "items[0].unitPrice", message: "Required without productId" },
  ]);
});

Deno.test("assertUnitLineQuantity() and assertUnitNotOnSale() guard lines with a unit", () => {
  assertUnitLineQuantity(1, "quantity");
  assertEquals(issuesOf(() => assertUnitLineQuantity(3, "quantity"))?.[0]?.path, "quantity");
  assertUnitNotOnSale(null, [null]);
  assertUnitNotOnSale("u-1", ["u-2", null]);
  assertEquals(issuesOf(() => assertUnitNotOnSale("u-1", [null, "u-1"])), [
    { path: "unitId", message: "The unit is already on this sale" },
  ]);
});

Deno.test("assertUnitsStillInStock() refuses a unit sold meanwhile", () => {
  assertUnitsStillInStock([{ id: "u-1", status: "in_stock" }]);
  const error = assertThrows(
    () =>
      assertUnitsStillInStock([{ id: "u-1", status: "in_stock" }, { id: "u-2", status: "sold" }]),
    ConflictError,
  );
  assertEquals(error.message, 'Unit "u-2" is no longer in stock (status sold)');
  const named = assertThrows(
    () => assertUnitsStillInStock([{ id: "u-2", status: "rented", serialNumber: "TR-88412" }]),
    ConflictError,
  );
  assertEquals(named.message, "Unit TR-88412 is no longer in stock (status rented)");
});

Deno.test("assertRepairTicketReference() ties repair tickets to repair_payment transactions", () => {
  assertRepairTicketReference("sale", undefined);
  assertRepairTicketReference("repair_payment", "t-1");
  assertEquals(issuesOf(() => assertRepairTicketReference("repair_payment", undefined)), [
    { path: "repairTicketId", message: "Required for a repair_payment transaction" },
  ]);
  assertEquals(issuesOf(() => assertRepairTicketReference("sale", "t-1")), [
    {
      path: "repairTicketId",
      message: "Only repair_payment transactions refer to a repair ticket",
    },
  ]);
});

Deno.test("assertRepairTicketPayable() refuses a missing or cancelled ticket", () => {
  assertRepairTicketPayable("t-1", "ready");
  assertThrows(() => assertRepairTicketPayable("t-1", undefined), InvalidReferenceError);
  const error = assertThrows(
    () => assertRepairTicketPayable("t-1", "cancelled"),
    ConflictError,
  ) as ConflictError;
  assertEquals(error.code, "invalid_transition");
});
