import { assertEquals } from "../../tests/_helpers/assert.ts";
import { extraFilePermission, mayAccessFilesOf } from "./file_access.ts";

Deno.test("ID scans need accounts.view besides files.*; other entity types nothing more", () => {
  assertEquals(extraFilePermission("member_identifier"), "accounts.view");
  assertEquals(extraFilePermission("member"), undefined);
  assertEquals(extraFilePermission("constructor"), undefined);
  assertEquals(mayAccessFilesOf("member_identifier", new Set(["files.view"])), false);
  assertEquals(
    mayAccessFilesOf("member_identifier", new Set(["files.view", "accounts.view"])),
    true,
  );
  assertEquals(mayAccessFilesOf("product", new Set(["files.view"])), true);
});
