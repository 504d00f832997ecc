import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { ConflictError } from "../errors.ts";
import { expandPermissions, PERMISSIONS } from "./permissions.ts";
import {
  assertAdminRemains,
  assertCanGrant,
  assertHoldsEveryPermission,
  grantsAdmin,
  missingPermissions,
  PrivilegeDeniedError,
} from "./privileges.ts";

Deno.test("missingPermissions() compares the involved permissions, expanded, with the caller's", () => {
  const caller = expandPermissions(["users.edit", "pos.admin"]);
  assertEquals(missingPermissions(caller, ["pos.edit", "users.view"]), []);
  assertEquals(missingPermissions(caller, ["users.admin"]), ["users.admin"]);
  // inventory.admin brings its whole domain: everything of it is involved.
  assertEquals(missingPermissions(expandPermissions(["inventory.edit"]), ["inventory.admin"]), [
    "inventory.admin",
  ]);
  assertEquals(missingPermissions(caller, ["not.a-permission"]), []);
});

Deno.test("assertHoldsEveryPermission() refuses anyone lacking a single permission", () => {
  const all = PERMISSIONS.map((p) => p.id);
  assertHoldsEveryPermission(expandPermissions(all), "A backup");
  const error = assertThrows(
    () =>
      assertHoldsEveryPermission(
        expandPermissions(all.filter((p) => p !== "vault.admin")),
        "A backup",
      ),
    PrivilegeDeniedError,
  ) as PrivilegeDeniedError;
  assertEquals(error.code, "forbidden");
  assertEquals(error.missing, ["vault.admin"]);
  const settingsOnly = assertThrows(
    () => assertHoldsEveryPermission(expandPermissions(["settings.admin"]), "A backup"),
    PrivilegeDeniedError,
  ) as PrivilegeDeniedError;
  assertEquals(settingsOnly.missing.length, all.length - 3);
});

Deno.test("assertCanGrant() refuses with 403 forbidden naming what is missing", () => {
  const caller = expandPermissions(["users.edit"]);
  const error = assertThrows(
    () => assertCanGrant(caller, PERMISSIONS.map((p) => p.id)),
    PrivilegeDeniedError,
  ) as PrivilegeDeniedError;
  assertEquals(error.code, "forbidden");
  assertEquals(error.kind, "forbidden");
  assertEquals(error.missing.includes("users.admin"), true);
  assertCanGrant(caller, ["users.view"]);
  assertCanGrant(expandPermissions(PERMISSIONS.map((p) => p.id)), PERMISSIONS.map((p) => p.id));
});

Deno.test("grantsAdmin() and assertAdminRemains()", () => {
  assertEquals(grantsAdmin(["users.admin"]), true);
  assertEquals(grantsAdmin(["users.edit", "settings.admin"]), false);
  assertAdminRemains(2, 1);
  assertAdminRemains(0, 0);
  const error = assertThrows(() => assertAdminRemains(1, 0), ConflictError) as ConflictError;
  assertEquals(error.code, "last_admin");
});
