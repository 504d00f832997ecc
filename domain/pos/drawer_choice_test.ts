import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { BadInputError, ConflictError, InvalidReferenceError } from "../errors.ts";
import { pickOpenSession } from "./drawer_choice.ts";

const a = { id: "s-a", registerId: "r-a", locationId: "l-1" };
const b = { id: "s-b", registerId: "r-b", locationId: "l-1" };
const elsewhere = { id: "s-c", registerId: "r-c", locationId: "l-2" };

Deno.test("pickOpenSession() takes the named register's session if it is at the location", () => {
  assertEquals(pickOpenSession([b], "l-1", "r-b", null), b);
  assertThrows(() => pickOpenSession([elsewhere], "l-1", "r-c", null), InvalidReferenceError);
  const none = assertThrows(() => pickOpenSession([], "l-1", "r-a", null), ConflictError);
  assertEquals((none as ConflictError).code, "drawer_not_open");
});

Deno.test("pickOpenSession() takes the only open session, or the transaction's register's", () => {
  assertEquals(pickOpenSession([a], "l-1", undefined, null), a);
  assertEquals(pickOpenSession([a, b], "l-1", undefined, "r-b"), b);
  const none = assertThrows(() => pickOpenSession([], "l-1", undefined, null), ConflictError);
  assertEquals((none as ConflictError).code, "drawer_not_open");
  const several = assertThrows(
    () => pickOpenSession([a, b], "l-1", undefined, "r-z"),
    BadInputError,
  );
  assertEquals((several as BadInputError).code, "register_required");
});
