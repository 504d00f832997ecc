import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import { BadInputError } from "../errors.ts";
import { assertNoCycle, fileNameFromUpload, nameProblem } from "./folder_tree.ts";

const A = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const B = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c";

Deno.test("assertNoCycle() refuses a target whose chain holds the folder (itself or below)", () => {
  assertThrows(() => assertNoCycle(A, [A]), BadInputError);
  assertThrows(() => assertNoCycle(A, [B, A.toUpperCase()]), BadInputError);
  assertNoCycle(A, [B]);
  assertNoCycle(A, []);
});

Deno.test("nameProblem() refuses control characters, slashes, . and ..", () => {
  assertEquals(nameProblem("Repair manuals 2026 (Yamaha) — é"), undefined);
  assertEquals(typeof nameProblem("a\u0000b"), "string");
  assertEquals(typeof nameProblem("a\nb"), "string");
  assertEquals(typeof nameProblem("a\u202eb"), "string");
  assertEquals(typeof nameProblem("a/b"), "string");
  assertEquals(typeof nameProblem("a\\b"), "string");
  assertEquals(typeof nameProblem(".."), "string");
  assertEquals(nameProblem("..."), undefined);
});

Deno.test("fileNameFromUpload() keeps the last segment, cleans and shortens with the extension", () => {
  assertEquals(fileNameFromUpload("C:\\Users\\x\\Price list.pdf"), "Price list.pdf");
  assertEquals(fileNameFromUpload("../../etc/passwd"), "passwd");
  assertEquals(fileNameFromUpload("a\nb.pdf"), "a_b.pdf");
  assertEquals(fileNameFromUpload("Tour %222026%22%0A.pdf"), 'Tour "2026"_.pdf');
  assertEquals(fileNameFromUpload(".."), "");
  assertEquals(fileNameFromUpload("  "), "");
  const long = fileNameFromUpload(`${"x".repeat(300)}.pdf`);
  assertEquals(long.length, 255);
  assertEquals(long.endsWith(".pdf"), true);
});
