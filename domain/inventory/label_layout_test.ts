import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { labelBoxes, labelSlot, labelsPerPage, pageCount, SHEETS } from "./label_layout.ts";

Deno.test("Avery 5160 is US Letter with 3 × 10 labels of 2.625 × 1 in", () => {
  const sheet = SHEETS.avery5160;
  assertEquals([sheet.pageWidth, sheet.pageHeight], [612, 792]);
  assertEquals([sheet.labelWidth, sheet.labelHeight], [189, 72]);
  assertEquals(labelsPerPage(sheet), 30);
  assertEquals([pageCount(sheet, 1), pageCount(sheet, 30), pageCount(sheet, 31)], [1, 1, 2]);
  assertEquals(pageCount(sheet, 50_000), 1667);
});

Deno.test("labelSlot() fills rows left to right from the top, then the next page", () => {
  const sheet = SHEETS.avery5160;
  assertEquals(labelSlot(sheet, 0), { page: 0, x: 13.5, y: 792 - 36 - 72 });
  assertEquals(labelSlot(sheet, 2), { page: 0, x: 13.5 + 2 * 198, y: 684 });
  assertEquals(labelSlot(sheet, 29), { page: 0, x: 409.5, y: 36 });
  assertEquals(labelSlot(sheet, 30), { page: 1, x: 13.5, y: 684 });
  // Every label lies on its page, the last column's right edge 0.1875 in from the page's.
  const last = labelSlot(sheet, 29);
  assertEquals(sheet.pageWidth - (last.x + sheet.labelWidth), 13.5);
});

Deno.test("the 57 mm roll is one 57 × 32 mm label a page", () => {
  const roll = SHEETS.roll57;
  assertEquals(roll.pageWidth.toFixed(2), "161.57");
  assertEquals(labelSlot(roll, 3), { page: 3, x: 0, y: 0 });
  assertEquals(pageCount(roll, 7), 7);
});

Deno.test("labelBoxes() keeps name, price and barcode inside the label without overlap", () => {
  for (const sheet of [SHEETS.avery5160, SHEETS.roll57]) {
    const { name, price, barcode } = labelBoxes(sheet.labelWidth, sheet.labelHeight, 50);
    for (const box of [name, price, barcode]) {
      assert(box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0);
      assert(box.x + box.width <= sheet.labelWidth && box.y + box.height <= sheet.labelHeight);
    }
    assert(name.x + name.width < price.x);
    assert(barcode.y + barcode.height < name.y);
  }
});
