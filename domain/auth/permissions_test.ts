import { assertEquals } from "../../tests/_helpers/assert.ts";
import { expandPermissions, PERMISSIONS, slugify, SYSTEM_ROLES } from "./permissions.ts";

Deno.test("PERMISSIONS holds exactly 42 identifiers in 13 domains", () => {
  assertEquals(PERMISSIONS.length, 42);
  assertEquals(new Set(PERMISSIONS.map((p) => p.domain)).size, 13);
  assertEquals(new Set(PERMISSIONS.map((p) => p.id)).size, 42);
});

Deno.test("expandPermissions() gives admin its whole domain", () => {
  assertEquals(
    [...expandPermissions(["pos.admin"])].sort(),
    ["pos.admin", "pos.edit", "pos.override", "pos.view"],
  );
});

Deno.test("expandPermissions() makes every permission imply its domain's view only", () => {
  assertEquals([...expandPermissions(["accounts.edit"])].sort(), [
    "accounts.edit",
    "accounts.view",
  ]);
  assertEquals([...expandPermissions(["pos.edit"])].sort(), ["pos.edit", "pos.view"]);
});

Deno.test("expandPermissions() applies the two cross-action rules", () => {
  assertEquals(
    [...expandPermissions(["lessons.edit"])].sort(),
    ["lessons.edit", "lessons.teach", "lessons.view"],
  );
  assertEquals(
    [...expandPermissions(["files.delete"])].sort(),
    ["files.delete", "files.upload", "files.view"],
  );
});

Deno.test("expandPermissions() drops unknown identifiers", () => {
  assertEquals([...expandPermissions(["nope.view", "vault.view"])], ["vault.view"]);
});

Deno.test("the Admin system role holds all 42 permissions", () => {
  assertEquals(SYSTEM_ROLES.find((r) => r.slug === "admin")!.permissions.length, 42);
  assertEquals(SYSTEM_ROLES.length, 6);
});

Deno.test("slugify() derives role slugs from names", () => {
  assertEquals(slugify("Front Desk"), "front-desk");
  assertEquals(slugify("  Café  Crew!! "), "cafe-crew");
});
