import fc from "fast-check";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import {
  centerText,
  cleanText,
  finishText,
  labelledRows,
  leftRight,
  storeHeaderRows,
  wrapText,
} from "./text_layout.ts";

Deno.test("wrapText() breaks at words, cuts over-long words and truncates with ...", () => {
  assertEquals(wrapText("one two three four", 9), ["one two", "three", "four"]);
  assertEquals(wrapText("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
  assertEquals(wrapText("one two three four", 9, 2), ["one two", "three..."]);
  assertEquals(wrapText("  tabs\tand\nnewlines ", 40), ["tabs and newlines"]);
  assertEquals(wrapText("", 10), []);
});

Deno.test("cleanText() turns control characters and whitespace runs into one space", () => {
  assertEquals(cleanText(" a\u0000b\r\n\tc\u009f  d "), "a b c d");
  assertEquals(cleanText(null), "");
});

Deno.test("leftRight(), centerText() and labelledRows() keep to the width", () => {
  assertEquals(leftRight("Tax", "5.27", 12), "Tax     5.27");
  assertEquals(leftRight("A long label", "10.00", 12), "A long 10.00");
  assertEquals(centerText("abc", 9), "   abc");
  assertEquals(labelledRows("Serial", "SAX-42", 20), ["Serial:       SAX-42"]);
  assertEquals(labelledRows("Item", "a value that will not fit on one row", 20), [
    "Item:",
    "  a value that will",
    "  not fit on one row",
  ]);
});

Deno.test("storeHeaderRows() centres name, address, phone and email", () => {
  assertEquals(
    storeHeaderRows({
      name: "Shop",
      address: { line1: "1 Main", line2: " ", city: "Town", state: "IL", postalCode: "6" },
      phone: "555",
      email: null,
    }, 10),
    ["   Shop", "  1 Main", "Town, IL 6", "   555"],
  );
});

Deno.test("every row of labelled values fits the width, whatever the text", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 30 }),
      fc.string({ maxLength: 200 }),
      fc.integer({ min: 20, max: 60 }),
      (label, value, w) => {
        const text = finishText(labelledRows(label, value, w));
        for (const row of text.split("\n")) assert(Array.from(row).length <= w, row);
        // deno-lint-ignore no-control-regex
        assert(!/[\u0000-\u0009\u000b-\u001f]/.test(text));
      },
    ),
    { numRuns: 300 },
  );
});
