import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { InvalidReferenceError, ValidationError } from "../errors.ts";
import { type LineItemProduct, resolveLineItem } from "./line_items.ts";

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
