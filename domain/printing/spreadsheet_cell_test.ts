import fc from "fast-check";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { spreadsheetCell } from "./spreadsheet_cell.ts";

const DANGEROUS_FIRST = ["=", "+", "-", "@", "\t", "\r"];

Deno.test("spreadsheetCell() puts a quote before what a spreadsheet would run", () => {
  assertEquals(
    spreadsheetCell('=HYPERLINK("http://x","click")'),
    `'=HYPERLINK("http://x","click")`,
  );
  assertEquals(spreadsheetCell("+1+2"), "'+1+2");
  assertEquals(spreadsheetCell("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0");
  assertEquals(spreadsheetCell("@SUM(A1:A9)"), "'@SUM(A1:A9)");
  assertEquals(spreadsheetCell("\t=1"), "'\t=1");
  assertEquals(spreadsheetCell("\r=1"), "'\r=1");
  assertEquals(spreadsheetCell("-"), "'-");
  assertEquals(spreadsheetCell("+5"), "'+5");
  assertEquals(spreadsheetCell("-1e3"), "'-1e3");
});

Deno.test("spreadsheetCell() leaves numbers (negative amounts too) and ordinary text alone", () => {
  for (
    const text of ["-12.50", "-3", "0.00", "1250.00", "42", "", "Guitar strings", "a=b", "'quoted"]
  ) {
    assertEquals(spreadsheetCell(text), text);
  }
});

Deno.test("spreadsheetCell() output never starts like a formula unless it is a plain number", () => {
  const cell = fc.string({
    unit: fc.oneof(
      fc.constantFrom(...DANGEROUS_FIRST, "1", ".", "0", "9"),
      fc.string({ maxLength: 1 }),
    ),
    maxLength: 20,
  });
  fc.assert(
    fc.property(cell, (text) => {
      const out = spreadsheetCell(text);
      assert(out === text || out === `'${text}`, "only ever a leading quote is added");
      if (DANGEROUS_FIRST.includes(out.charAt(0))) {
        assert(/^-\d+(\.\d+)?$/.test(out), `${JSON.stringify(out)} starts like a formula`);
      }
    }),
  );
  fc.assert(
    fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.nat(99), (whole, cents) => {
      const amount = `${whole}.${String(cents).padStart(2, "0")}`;
      assertEquals(spreadsheetCell(amount), amount);
    }),
  );
});
