import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { BadInputError, InvalidReferenceError, ValidationError } from "../errors.ts";
import { type LineItemProduct, partStockMoves, resolveLineItem } from "./line_items.ts";

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
    () => resolveLineItem({ kind: "part", quantity: 1, productId: "nope" }, undefined, "items[0]"),
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
