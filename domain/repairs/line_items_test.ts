import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { BadInputError, InvalidReferenceError, ValidationError } from "../errors.ts";
import {
  type LineItemProduct,
  NO_PART_STOCK,
  partStockAfterEdit,
  partStockMoves,
  partStockOf,
  resolveLineItem,
} from "./line_items.ts";

const STRINGS: LineItemProduct = {
  id: "p1",
  name: "Violin strings",
  price: "24.00",
  type: "standard",
  isConsumable: false,
};
const GLUE: LineItemProduct = {
  id: "p2",
  name: "Hide glue",
  price: "3.00",
  type: "consumable",
  isConsumable: true,
};

Deno.test("resolveLineItem() takes the product's name and price unless given, and flags consumables internal", () => {
  assertEquals(resolveLineItem({ kind: "part", quantity: 2, productId: "p1" }, STRINGS), {
    kind: "part",
    description: "Violin strings",
    quantity: 2,
    unitPrice: "24.00",
    productId: "p1",
    isInternal: false,
  });
  const glue = resolveLineItem(
    { kind: "part", quantity: 1, productId: "p2", description: "Glue", unitPrice: "1.50" },
    GLUE,
  );
  assertEquals([glue.description, glue.unitPrice, glue.isInternal], ["Glue", "1.50", true]);
  const flagged = resolveLineItem({ kind: "part", quantity: 1, productId: "p3" }, {
    ...STRINGS,
    id: "p3",
    isConsumable: true,
  });
  assertEquals(flagged.isInternal, true);
  const labor = resolveLineItem(
    { kind: "labor", quantity: 1, description: "Setup", unitPrice: "40.00" },
    undefined,
  );
  assertEquals([labor.productId, labor.isInternal], [null, false]);
});

Deno.test("resolveLineItem() refuses an unknown product and a free line without description or price", () => {
  const unknown = assertThrows(
    () =>
      resolveLineItem({ kind: "part", quantity: 1, productId: "nope" }, undefined, {
        path: "items[0]",
      }),
    InvalidReferenceError,
  );
  assertEquals((unknown as InvalidReferenceError).code, "invalid_reference");
  const free = assertThrows(
    () => resolveLineItem({ kind: "labor", quantity: 1 }, undefined),
    ValidationError,
  ) as ValidationError;
  assertEquals(free.issues?.map((i) => i.path), ["description", "unitPrice"]);
});

Deno.test("resolveLineItem() refuses products tracked unit by unit (serialized, rental)", () => {
  for (const type of ["serialized", "rental"]) {
    const refused = assertThrows(
      () => resolveLineItem({ kind: "part", quantity: 1, productId: "p1" }, { ...STRINGS, type }),
      BadInputError,
    ) as BadInputError;
    assertEquals([refused.code, refused.issues?.map((i) => i.path)], [
      "invalid_product_type",
      ["productId"],
    ]);
  }
  const repair = resolveLineItem({ kind: "labor", quantity: 1, productId: "p1" }, {
    ...STRINGS,
    type: "repair",
  });
  assertEquals(repair.productId, "p1");
});

Deno.test("resolveLineItem() lets an edit keep the unit-carrying product an older line names", () => {
  const guitar = { ...STRINGS, type: "serialized" };
  const kept = resolveLineItem({ kind: "part", quantity: 2, productId: "p1" }, guitar, {
    kept: "p1",
  });
  assertEquals([kept.productId, kept.quantity], ["p1", 2]);
  assertThrows(
    () => resolveLineItem({ kind: "part", quantity: 1, productId: "p1" }, guitar, { kept: "p2" }),
    BadInputError,
  );
});

Deno.test("partStockOf() holds the quantity of a counted product, nothing otherwise", () => {
  assertEquals(partStockOf({ quantity: 3 }, STRINGS), { productId: "p1", quantity: 3 });
  assertEquals(partStockOf({ quantity: 3 }, { id: "g", type: "consumable" }), {
    productId: "g",
    quantity: 3,
  });
  assertEquals(partStockOf({ quantity: 3 }, undefined), NO_PART_STOCK);
  assertEquals(partStockOf({ quantity: 3 }, { id: "s", type: "serialized" }), NO_PART_STOCK);
  assertEquals(partStockOf({ quantity: 3 }, { id: "r", type: "rental" }), NO_PART_STOCK);
});

Deno.test("partStockAfterEdit() keeps what a line holds unless its product or quantity changes", () => {
  const held = { productId: "p1", quantity: 3 };
  const line = { productId: "p1", quantity: 3, stock: held };
  assertEquals(partStockAfterEdit(line, { productId: "p1", quantity: 3 }, STRINGS), held);
  assertEquals(partStockAfterEdit(line, { productId: "p1", quantity: 5 }, STRINGS), {
    productId: "p1",
    quantity: 5,
  });
  assertEquals(
    partStockAfterEdit(line, { productId: null, quantity: 3 }, undefined),
    NO_PART_STOCK,
  );
  // A line from before parts took stock holds nothing: an edit that keeps product and quantity
  // keeps holding nothing; changing either takes the new quantity in full.
  const old = { productId: "p1", quantity: 3, stock: NO_PART_STOCK };
  assertEquals(partStockAfterEdit(old, { productId: "p1", quantity: 3 }, STRINGS), NO_PART_STOCK);
  assertEquals(partStockAfterEdit(old, { productId: "p1", quantity: 4 }, STRINGS), {
    productId: "p1",
    quantity: 4,
  });
  // An older line naming a serialized product holds nothing whatever its quantity.
  const guitar = { id: "p9", type: "serialized" };
  const unit = { productId: "p9", quantity: 1, stock: NO_PART_STOCK };
  assertEquals(partStockAfterEdit(unit, { productId: "p9", quantity: 2 }, guitar), NO_PART_STOCK);
});

Deno.test("partStockMoves() takes an added line, gives a deleted one back, moves a change's difference", () => {
  const line = (productId: string | null, quantity: number) => ({ productId, quantity });
  assertEquals(partStockMoves([], [line("a", 3)]), [{ productId: "a", delta: -3 }]);
  assertEquals(partStockMoves([line("a", 3)], []), [{ productId: "a", delta: 3 }]);
  assertEquals(partStockMoves([line("a", 3)], [line("a", 1)]), [{ productId: "a", delta: 2 }]);
  assertEquals(partStockMoves([line("a", 1)], [line("a", 4)]), [{ productId: "a", delta: -3 }]);
  assertEquals(partStockMoves([line("a", 2)], [line("b", 5)]), [
    { productId: "a", delta: 2 },
    { productId: "b", delta: -5 },
  ]);
  // Nothing moves for a line without a product, nor for a change that keeps product and count.
  assertEquals(partStockMoves([line(null, 2)], [line(null, 9)]), []);
  assertEquals(partStockMoves([line("a", 2)], [line("a", 2)]), []);
  assertEquals(partStockMoves([line(null, 2)], [line("a", 2)]), [{ productId: "a", delta: -2 }]);
  // Several lines added at once (a service template's): summed per product.
  assertEquals(partStockMoves([], [line("a", 1), line(null, 1), line("a", 2)]), [
    { productId: "a", delta: -3 },
  ]);
});
