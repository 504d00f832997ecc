import { assertEquals } from "../../tests/_helpers/assert.ts";
import { passwordProblem } from "./password_rules.ts";

Deno.test("passwordProblem() accepts 8 to 72 bytes and refuses anything shorter or longer", () => {
  assertEquals(passwordProblem("12345678"), undefined);
  assertEquals(passwordProblem("x".repeat(72)), undefined);
  assertEquals(typeof passwordProblem("1234567"), "string");
  assertEquals(typeof passwordProblem("x".repeat(73)), "string");
});

Deno.test("passwordProblem() counts UTF-8 bytes, not characters", () => {
  // "é" is two bytes: 36 of them are 72 bytes, 37 are 74.
  assertEquals(passwordProblem("é".repeat(36)), undefined);
  assertEquals(typeof passwordProblem("é".repeat(37)), "string");
  // Four 2-byte characters are 8 bytes: long enough although only 4 characters.
  assertEquals(passwordProblem("éééé"), undefined);
});
