import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import {
  assertNoCardNumber,
  containsCardNumber,
  findCardNumber,
  passesLuhn,
} from "./card_numbers.ts";

Deno.test("passesLuhn() accepts valid test card numbers and refuses altered ones", () => {
  assertEquals(passesLuhn("4111111111111111"), true);
  assertEquals(passesLuhn("5555555555554444"), true);
  assertEquals(passesLuhn("378282246310005"), true);
  assertEquals(passesLuhn("4111111111111112"), false);
  assertEquals(passesLuhn("12a4"), false);
});

Deno.test("containsCardNumber() finds a PAN written plain, with spaces or with dashes", () => {
  assertEquals(containsCardNumber("4111111111111111"), true);
  assertEquals(containsCardNumber("4111 1111 1111 1111"), true);
  assertEquals(containsCardNumber("4111-1111-1111-1111"), true);
  assertEquals(containsCardNumber("card: 5555 5555 5555 4444, thanks"), true);
  assertEquals(containsCardNumber("amex 3782 822463 10005"), true);
});

Deno.test("containsCardNumber() finds a PAN followed by more digit groups", () => {
  assertEquals(containsCardNumber("4111 1111 1111 1111 123"), true);
  assertEquals(containsCardNumber("12 4111 1111 1111 1111"), true);
});

Deno.test("containsCardNumber() lets through short, long and non-Luhn digit runs", () => {
  assertEquals(containsCardNumber("1111"), false);
  assertEquals(containsCardNumber("last4 4242"), false);
  assertEquals(containsCardNumber("4111111111111112"), false);
  assertEquals(containsCardNumber("411111111111"), false); // 12 digits
  assertEquals(containsCardNumber("pm_41111111111111110000000"), false); // 23 digits, ungrouped
  assertEquals(containsCardNumber("4111  1111  1111  1111"), false); // double spaces break groups
  assertEquals(containsCardNumber(""), false);
});

Deno.test("findCardNumber() names the first field holding a PAN, nested or not", () => {
  assertEquals(findCardNumber({ brand: "visa", last4: "1111" }), undefined);
  assertEquals(findCardNumber({ brand: "4111 1111 1111 1111" }), "brand");
  assertEquals(findCardNumber({ a: { b: ["x", "5555555555554444"] } }), "a.b.1");
  assertEquals(findCardNumber({ n: 4111111111111111 }), undefined);
});

Deno.test("assertNoCardNumber() refuses a body with a PAN and names the field, not the number", () => {
  assertNoCardNumber({ brand: "visa", last4: "1111" });
  const error = assertThrows(
    () => assertNoCardNumber({ notes: ["ok", "4111 1111 1111 1111"] }),
    ValidationError,
  ) as ValidationError;
  assertEquals(error.issues?.[0]?.path, "notes.1");
  assertEquals(error.issues?.[0]?.message.includes("4111"), false);
});

Deno.test("containsCardNumber() sees through no-break and other Unicode spaces", () => {
  assertEquals(containsCardNumber("4111\u00A01111\u00A01111\u00A01111"), true); // no-break space
  assertEquals(containsCardNumber("4111\u202F1111\u202F1111\u202F1111"), true); // narrow NBSP
  assertEquals(containsCardNumber("4111\u20071111\u20071111\u20071111"), true); // figure space
  assertEquals(containsCardNumber("4111\u30001111\u30001111\u30001111"), true); // ideographic
  assertEquals(containsCardNumber("4111\t1111\n1111\r\n1111"), false); // \r\n is two separators
  assertEquals(containsCardNumber("4111\t1111\n1111\n1111"), true);
});

Deno.test("containsCardNumber() takes dots and any dash as group separators", () => {
  assertEquals(containsCardNumber("4111.1111.1111.1111"), true);
  assertEquals(containsCardNumber("5555\u00B75555\u00B75555\u00B74444"), true); // middle dot
  assertEquals(containsCardNumber("5555\u20225555\u20225555\u20224444"), true); // bullet
  assertEquals(containsCardNumber("4111\u20131111\u20131111\u20131111"), true); // en dash
  assertEquals(containsCardNumber("4111\u20141111\u20141111\u20141111"), true); // em dash
  assertEquals(containsCardNumber("4111\u22121111\u22121111\u22121111"), true); // minus sign
  assertEquals(containsCardNumber("4111\u20111111\u20111111\u20111111"), true); // NB hyphen
});

Deno.test("containsCardNumber() reads full-width and other-script digits", () => {
  assertEquals(containsCardNumber("４１１１１１１１１１１１１１１１"), true); // full-width
  assertEquals(containsCardNumber("４１１１－１１１１－１１１１－１１１１"), true); // full-width dash
  assertEquals(containsCardNumber("４１１１．１１１１．１１１１．１１１１"), true); // full-width dot
  assertEquals(containsCardNumber("\u0664" + "\u0661".repeat(15)), true); // Arabic-Indic
  assertEquals(containsCardNumber("\u096A" + "\u0967".repeat(15)), true); // Devanagari
  assertEquals(containsCardNumber("𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏"), true); // mathematical bold
  assertEquals(containsCardNumber("４１１１１１１１１１１１１１１２"), false); // not Luhn
});

Deno.test("containsCardNumber() ignores invisible characters slipped between digits", () => {
  assertEquals(containsCardNumber("4111\u200B1111\u200B1111\u200B1111"), true); // zero-width sp.
  assertEquals(containsCardNumber("41\u00AD11 1111 11\u200D11 1111"), true); // soft hyphen, ZWJ
  assertEquals(containsCardNumber("\uFEFF4111111111111111"), true); // BOM
});

Deno.test("containsCardNumber() still lets through prices, dates, phones and versions", () => {
  assertEquals(containsCardNumber("Paid 12.50 on 2026-11-21, call 555.123.4567"), false);
  assertEquals(containsCardNumber("v1.2.3 – ４２ items"), false);
  assertEquals(containsCardNumber("4111\u00A0\u00A01111\u00A0\u00A01111\u00A0\u00A01111"), false);
});

Deno.test("findCardNumber() names the field of a disguised PAN", () => {
  assertEquals(
    findCardNumber({ brand: "visa", notes: ["４１１１\u00A01111.1111\u20131111"] }),
    "notes.0",
  );
});
