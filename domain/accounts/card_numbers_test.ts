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
