import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import type { Permission } from "../auth/permissions.ts";
import { ForbiddenError, InvalidReferenceError, NotFoundError } from "../errors.ts";
import {
  ACTION_LEVEL,
  allows,
  childFacts,
  effectiveLevel,
  highestLevel,
  isVisible,
  LEVELS,
  requireLevel,
  requireTargetLevel,
  storageCeiling,
} from "./levels.ts";

const VIEW = new Set<Permission>(["storage.view"]);
const EDIT = new Set<Permission>(["storage.view", "storage.edit"]);
const ADMIN = new Set<Permission>(["storage.view", "storage.edit", "storage.admin"]);
const NONE = new Set<Permission>(["files.view"]);

const facts = (grantLevels: string[], publicInChain = false) => ({ grantLevels, publicInChain });

Deno.test("highestLevel() orders traverse < view < edit < admin and ignores non-levels", () => {
  assertEquals(highestLevel([]), "none");
  assertEquals(highestLevel(["view", "traverse"]), "view");
  assertEquals(highestLevel(["traverse", "admin", "edit"]), "admin");
  assertEquals(highestLevel(["owner", "constructor"]), "none");
});

Deno.test("storageCeiling(): storage.view → view, storage.edit and storage.admin → admin, else none", () => {
  assertEquals(storageCeiling(VIEW), "view");
  assertEquals(storageCeiling(EDIT), "admin");
  assertEquals(storageCeiling(ADMIN), "admin");
  assertEquals(storageCeiling(NONE), "none");
});

Deno.test("effectiveLevel() is the highest grant capped by the ceiling", () => {
  for (const level of LEVELS) {
    assertEquals(effectiveLevel(facts([level]), EDIT), level);
  }
  assertEquals(effectiveLevel(facts(["admin"]), VIEW), "view");
  assertEquals(effectiveLevel(facts(["edit"]), VIEW), "view");
  assertEquals(effectiveLevel(facts(["traverse"]), VIEW), "traverse");
  assertEquals(effectiveLevel(facts(["traverse", "edit", "view"]), EDIT), "edit");
  assertEquals(effectiveLevel(facts([]), EDIT), "none");
  assertEquals(effectiveLevel(facts([]), VIEW), "none");
});

Deno.test("effectiveLevel(): public acts as a view grant, never lowering a higher one", () => {
  assertEquals(effectiveLevel(facts([], true), VIEW), "view");
  assertEquals(effectiveLevel(facts([], true), EDIT), "view");
  assertEquals(effectiveLevel(facts(["traverse"], true), EDIT), "view");
  assertEquals(effectiveLevel(facts(["edit"], true), EDIT), "edit");
});

Deno.test("effectiveLevel(): storage.admin is admin everywhere; without storage.view nothing", () => {
  assertEquals(effectiveLevel(facts([]), ADMIN), "admin");
  assertEquals(effectiveLevel(facts(["traverse"]), ADMIN), "admin");
  assertEquals(effectiveLevel(facts(["admin"], true), NONE), "none");
});

Deno.test("childFacts() inherits the parent's grants and publicity and adds the child's own", () => {
  const parent = facts(["traverse"]);
  assertEquals(
    effectiveLevel(childFacts(parent, { ownGrantLevels: [], isPublic: false }), EDIT),
    "traverse",
  );
  assertEquals(
    effectiveLevel(childFacts(parent, { ownGrantLevels: ["edit"], isPublic: false }), EDIT),
    "edit",
  );
  assertEquals(
    effectiveLevel(childFacts(parent, { ownGrantLevels: [], isPublic: true }), EDIT),
    "view",
  );
  assertEquals(
    childFacts(facts([], true), { ownGrantLevels: [], isPublic: false }).publicInChain,
    true,
  );
});

Deno.test("isVisible() is exactly: storage.admin, or (storage.view and (a grant or public))", () => {
  for (const permissions of [VIEW, EDIT, ADMIN, NONE]) {
    for (const grants of [[], ["traverse"], ["admin"]]) {
      for (const pub of [false, true]) {
        const expected = permissions.has("storage.admin") ||
          (permissions.has("storage.view") && (grants.length > 0 || pub));
        assertEquals(isVisible(facts(grants, pub), permissions), expected);
      }
    }
  }
});

Deno.test("the level table: traverse sees, view reads files, edit writes, admin manages", () => {
  assertEquals(allows("traverse", "seeFolder"), true);
  assertEquals(allows("traverse", "readFiles"), false);
  assertEquals(allows("view", "readFiles"), true);
  assertEquals(allows("view", "writeFiles"), false);
  assertEquals(allows("edit", "writeFiles"), true);
  assertEquals(allows("edit", "createSubfolder"), true);
  assertEquals(allows("edit", "renameFolder"), true);
  assertEquals(allows("edit", "manageGrants"), false);
  assertEquals(allows("edit", "deleteFolder"), false);
  assertEquals(allows("edit", "createPublicSubfolder"), false);
  for (const action of Object.keys(ACTION_LEVEL) as (keyof typeof ACTION_LEVEL)[]) {
    assertEquals(allows("admin", action), true);
    assertEquals(allows("none", action), false);
  }
});

Deno.test("requireLevel(): none → 404, too low → 403; requireTargetLevel(): none → 400", () => {
  assertThrows(() => requireLevel("none", "seeFolder", "Folder x"), NotFoundError);
  assertThrows(() => requireLevel("traverse", "readFiles", "Folder x"), ForbiddenError);
  requireLevel("view", "readFiles", "Folder x");
  assertThrows(
    () => requireTargetLevel("none", "writeFiles", "folderId", "x"),
    InvalidReferenceError,
  );
  assertThrows(() => requireTargetLevel("view", "writeFiles", "folderId", "x"), ForbiddenError);
  requireTargetLevel("edit", "writeFiles", "folderId", "x");
});
