import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import { assertKeepsDefault, isDefaultOnCreate } from "./grading_scale_default.ts";

Deno.test("isDefaultOnCreate() makes the first scale the default, later ones only on request", () => {
  assertEquals(isDefaultOnCreate(undefined, false), true);
  assertEquals(isDefaultOnCreate(false, false), true);
  assertEquals(isDefaultOnCreate(undefined, true), false);
  assertEquals(isDefaultOnCreate(true, true), true);
});

Deno.test("assertKeepsDefault() refuses unsetting the default with default_required", () => {
  assertKeepsDefault(false, false);
  assertKeepsDefault(true, true);
  assertKeepsDefault(undefined, true);
  const error = assertThrows(() => assertKeepsDefault(false, true), ConflictError) as ConflictError;
  assertEquals(error.code, "default_required");
});
