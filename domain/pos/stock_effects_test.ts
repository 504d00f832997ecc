import { assertEquals } from "../../tests/_helpers/assert.ts";
import { stockDeltas, unitIdsOf, unitStatusAfter } from "./stock_effects.ts";

Deno.test("stockDeltas() sums lines per product and skips serialized products and free lines", () => {
  const lines = [
    { productId: "p-1", quantity: 2, productType: "standard" },
    { productId: "p-2", quantity: 1, productType: "serialized" },
    { productId: null, quantity: 5, productType: null },
    { productId: "p-1", quantity: 3, productType: "standard" },
    { productId: "p-3", quantity: 1, productType: "rental" },
  ];
  assertEquals(stockDeltas(lines, -1), [
    { productId: "p-1", delta: -5 },
    { productId: "p-3", delta: -1 },
  ]);
  assertEquals(stockDeltas(lines, 1)[0], { productId: "p-1", delta: 5 });
});

Deno.test("unitIdsOf() lists each unit once, sorted; unitStatusAfter() names the new status", () => {
  assertEquals(
    unitIdsOf([{ unitId: "u-2" }, { unitId: null }, { unitId: "u-1" }, { unitId: "u-2" }]),
    [
      "u-1",
      "u-2",
    ],
  );
  assertEquals([unitStatusAfter(-1), unitStatusAfter(1)], ["sold", "in_stock"]);
});
