import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ValidationError } from "../errors.ts";
import { assertNoCycle, wouldCreateCycle } from "./category_tree.ts";

Deno.test("wouldCreateCycle() refuses a category as its own parent", () => {
  assertEquals(wouldCreateCycle("a", "a", []), true);
});

Deno.test("wouldCreateCycle() refuses a move under one of the category's descendants", () => {
  // c's ancestors: b, a — moving a under c closes a → b → c → a.
  assertEquals(wouldCreateCycle("a", "c", ["b", "a"]), true);
});

Deno.test("wouldCreateCycle() accepts a move under an unrelated branch", () => {
  assertEquals(wouldCreateCycle("a", "x", ["y", "z"]), false);
  assertEquals(wouldCreateCycle("a", "x", []), false);
});

Deno.test("assertNoCycle() throws a validation error naming parentId", () => {
  const error = assertThrows(() => assertNoCycle("a", "c", ["b", "a"]), ValidationError);
  assertEquals((error as ValidationError).issues?.[0]?.path, "parentId");
  assertNoCycle("a", "x", ["y"]);
});
