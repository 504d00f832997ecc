import { assertEquals } from "../../tests/_helpers/assert.ts";
import { moduleForPath, MODULES } from "./modules.ts";

Deno.test("moduleForPath() maps every documented prefix", () => {
  assertEquals(moduleForPath("/products/123"), "inventory");
  assertEquals(moduleForPath("/lookups/unit-statuses"), "inventory");
  assertEquals(moduleForPath("/repair-tickets/1/notes"), "repairs");
  assertEquals(moduleForPath("/lesson-sessions/generate"), "lessons");
  assertEquals(moduleForPath("/storage/folders"), "files");
  assertEquals(moduleForPath("/vault/status"), "vault");
});

Deno.test("moduleForPath() prefers /reports/daily (pos) over /reports/ (reports)", () => {
  assertEquals(moduleForPath("/reports/daily"), "pos");
  assertEquals(moduleForPath("/reports/sales"), "reports");
});

Deno.test("moduleForPath() leaves core routes ungated", () => {
  assertEquals(moduleForPath("/accounts"), undefined);
  assertEquals(moduleForPath("/lookups/id-types"), undefined);
  assertEquals(moduleForPath("/store"), undefined);
});

Deno.test("MODULES lists 9 optional and 5 core modules", () => {
  assertEquals(MODULES.filter((m) => !m.core).length, 9);
  assertEquals(MODULES.filter((m) => m.core).length, 5);
});
