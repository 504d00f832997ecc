import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { fitText, toAscii, toWinAnsi, wrapLines } from "./label_text.ts";

/** One unit a character at size 1. */
const mono = (text: string, size: number) => [...text].length * size;

Deno.test("toWinAnsi() keeps Latin-1 and CP1252, folds other accents, replaces the rest", () => {
  assertEquals(toWinAnsi("Café <b> – 5€ “ok”"), "Café <b> – 5€ “ok”");
  assertEquals(toWinAnsi("Dvořák ő"), "Dvorák o");
  assertEquals(toWinAnsi("Guitar 🎸 吉他"), "Guitar ? ??");
  assertEquals(toWinAnsi("a\tb\n\u0000c  "), "a b c");
});

Deno.test("toAscii() spells typography in ASCII and drops accents", () => {
  assertEquals(toAscii("Café – “Ångström” …"), 'Cafe - "Angstrom" ...');
  assertEquals(toAscii("Straße 🎸"), "Strasse ?");
});

Deno.test("wrapLines() wraps at spaces and breaks words wider than the line", () => {
  assertEquals(wrapLines("ab cd ef", 5, (t) => t.length), ["ab cd", "ef"]);
  assertEquals(wrapLines("abcdefgh", 3, (t) => t.length), ["abc", "def", "gh"]);
});

Deno.test("fitText() shrinks before it cuts, and cuts with an ellipsis", () => {
  assertEquals(fitText("abcd efgh", { width: 20, maxLines: 1, maxSize: 4, minSize: 1 }, mono), {
    size: 2,
    lines: ["abcd efgh"],
  });
  const cut = fitText("x".repeat(200), { width: 20, maxLines: 2, maxSize: 4, minSize: 2 }, mono);
  assertEquals(cut.size, 2);
  assertEquals(cut.lines.length, 2);
  assert(cut.lines[1]!.endsWith("…"));
  for (const line of cut.lines) assert(mono(line, 2) <= 20, line);
});
