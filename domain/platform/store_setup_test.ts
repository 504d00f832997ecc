import { assertEquals } from "../../tests/_helpers/assert.ts";
import { SEED_STORE, storeSetupGaps } from "./store_setup.ts";

Deno.test("storeSetupGaps() names the placeholder store name and a missing location", () => {
  assertEquals(storeSetupGaps({ storeName: SEED_STORE.name, hasLocation: false }), [
    "the store's name",
    "a location",
  ]);
  assertEquals(storeSetupGaps({ storeName: "Harmony Music", hasLocation: false }), ["a location"]);
  assertEquals(storeSetupGaps({ storeName: SEED_STORE.name, hasLocation: true }), [
    "the store's name",
  ]);
  assertEquals(storeSetupGaps({ storeName: "Harmony Music", hasLocation: true }), []);
});
