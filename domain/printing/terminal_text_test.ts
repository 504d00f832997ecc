import fc from "fast-check";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { terminalText } from "./terminal_text.ts";

/** Every character a terminal acts on: C0 (but tab and line feed), DEL, C1. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

Deno.test("terminalText() drops escape sequences whole", () => {
  assertEquals(terminalText("\x1b[2JCleaner"), "Cleaner");
  assertEquals(terminalText("Red \x1b[31;1mhot\x1b[0m deal"), "Red hot deal");
  assertEquals(terminalText("a\x9b2Jb"), "ab"); // the 8-bit CSI
  assertEquals(terminalText("\x1b]0;owned\x07Title"), "Title"); // window title, BEL-ended
  assertEquals(
    terminalText("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ here"),
    "click here",
  ); // OSC 8 hyperlink, ST-ended
  assertEquals(terminalText("\x1bPq#0;2;0;0;0\x1b\\x"), "x"); // DCS (sixel)
  assertEquals(terminalText("\x1bcReset"), "Reset"); // RIS: full reset
  assertEquals(terminalText("\x1b(0box\x1b(B"), "box"); // charset switches
  assertEquals(terminalText("unterminated \x1b]0;title"), "unterminated ");
  assertEquals(terminalText("trailing \x1b"), "trailing ");
});

Deno.test("terminalText() drops other control characters but keeps tab, line feed and text", () => {
  assertEquals(terminalText("bell\x07 del\x7f nul\x00 c1\x85 cr\rx"), "bell del nul c1 crx");
  assertEquals(terminalText("two\r\nlines\tand a tab"), "two\nlines\tand a tab");
  assertEquals(
    terminalText('Müller & Söhne =HYPERLINK("x") 12.50 [2J'),
    'Müller & Söhne =HYPERLINK("x") 12.50 [2J',
  );
  assertEquals(terminalText("emoji 🎺 and 中文"), "emoji 🎺 and 中文");
});

Deno.test("terminalText() never lets a control character through, and keeps clean text as it is", () => {
  const dirty = fc.string({
    unit: fc.oneof(
      fc.constantFrom("\x1b", "\x9b", "\x9d", "\x90", "\x9c", "\x07", "\r", "\n", "\t", "[", "]"),
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom("2J", "0;", "\\", "31m", "a", "é", "🎺"),
    ),
    maxLength: 60,
  });
  fc.assert(
    fc.property(dirty, (text) => {
      const out = terminalText(text);
      assert(!CONTROL.test(out), JSON.stringify(out));
      assertEquals(terminalText(out), out); // idempotent
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (text) => {
      const clean = text.replace(new RegExp(CONTROL, "g"), "");
      assertEquals(terminalText(clean), clean);
    }),
  );
});
