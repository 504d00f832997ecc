import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import {
  assertCarriesUnits,
  carriesUnits,
  priceChanged,
  receiptIncrementsStock,
  resolveConsumableFlag,
} from "./products.ts";

Deno.test("resolveConsumableFlag() makes every consumable product consumable", () => {
  assertEquals(resolveConsumableFlag("consumable", undefined), true);
  assertEquals(resolveConsumableFlag("consumable", true), true);
  assertThrows(() => resolveConsumableFlag("consumable", false), ValidationError);
});

Deno.test("resolveConsumableFlag() keeps the requested or current flag for other types", () => {
  assertEquals(resolveConsumableFlag("standard", undefined), false);
  assertEquals(resolveConsumableFlag("standard", true), true);
  assertEquals(resolveConsumableFlag("repair", undefined, true), true);
  assertEquals(resolveConsumableFlag("repair", false, true), false);
});

Deno.test("only serialized and rental products carry units", () => {
  assertEquals(carriesUnits("serialized"), true);
  assertEquals(carriesUnits("rental"), true);
  assertEquals(carriesUnits("standard"), false);
  assertThrows(() => assertCarriesUnits("p1", "consumable"), ConflictError);
});

Deno.test("receipts increment stock except for serialized products", () => {
  assertEquals(receiptIncrementsStock("standard"), true);
  assertEquals(receiptIncrementsStock("rental"), true);
  assertEquals(receiptIncrementsStock("serialized"), false);
});

Deno.test("priceChanged() compares in cents", () => {
  assertEquals(priceChanged("5", "5.00"), false);
  assertEquals(priceChanged("5.00", "5.01"), true);
});
