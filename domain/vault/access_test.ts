import { assertEquals } from "../../tests/_helpers/assert.ts";
import type { Permission } from "../auth/permissions.ts";
import { ceilingOf, effectiveLevel, hasLevel, LEVEL_RANK } from "./access.ts";

const perms = (...p: Permission[]) => new Set<Permission>(p);

Deno.test("effectiveLevel(): vault.view caps every grant at view", () => {
  const ceiling = ceilingOf(perms("vault.view"));
  assertEquals(effectiveLevel(LEVEL_RANK.admin, ceiling), "view");
  assertEquals(effectiveLevel(LEVEL_RANK.edit, ceiling), "view");
  assertEquals(effectiveLevel(LEVEL_RANK.view, ceiling), "view");
  assertEquals(effectiveLevel(null, ceiling), null);
});

Deno.test("effectiveLevel(): vault.edit lets the grants decide (up to admin)", () => {
  const ceiling = ceilingOf(perms("vault.view", "vault.edit"));
  assertEquals(effectiveLevel(LEVEL_RANK.admin, ceiling), "admin");
  assertEquals(effectiveLevel(LEVEL_RANK.edit, ceiling), "edit");
  assertEquals(effectiveLevel(LEVEL_RANK.view, ceiling), "view");
  assertEquals(effectiveLevel(0, ceiling), null);
});

Deno.test("effectiveLevel(): vault.admin is admin on every category, without grants", () => {
  const ceiling = ceilingOf(perms("vault.admin"));
  assertEquals(effectiveLevel(null, ceiling), "admin");
  assertEquals(effectiveLevel(LEVEL_RANK.view, ceiling), "admin");
});

Deno.test("effectiveLevel(): without a vault permission no grant gives a level", () => {
  assertEquals(effectiveLevel(LEVEL_RANK.admin, ceilingOf(perms("accounts.admin"))), null);
});

Deno.test("hasLevel() orders view < edit < admin", () => {
  assertEquals(hasLevel("admin", "edit"), true);
  assertEquals(hasLevel("edit", "edit"), true);
  assertEquals(hasLevel("view", "edit"), false);
  assertEquals(hasLevel(null, "view"), false);
});
