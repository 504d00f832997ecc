/**
 * Stored text (a product's name, a reason, an email) made harmless for a terminal, for every
 * line `ops` prints: a name can then neither clear the screen, move the cursor, recolour or hide
 * what follows, set the window title, make a link (OSC 8), ring the bell nor overwrite its line.
 *
 * - An escape sequence is dropped whole (so `\x1b[2J` leaves no `[2J`): CSI (`ESC [` or C1
 *   0x9B, its parameters and final byte), the string commands OSC, DCS, SOS, PM and APC (`ESC ]`,
 *   `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their C1 forms, up to BEL or ST; unterminated: to the
 *   end, as a terminal would swallow it), and every other `ESC` sequence (`ESC c` resets).
 * - Then every other control character is dropped: C0 but tab and line feed (so a carriage
 *   return cannot rewind a line), DEL and C1 (0x80-0x9F).
 * - Everything else, tab and line feed included, is kept as it is.
 */

const ESCAPE_SEQUENCE = new RegExp(
  [
    // CSI: parameter bytes, intermediate bytes, a final byte (when there is one).
    "(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?",
    // OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \ or C1 0x9C), else to the end.
    "(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?",
    // Any other ESC sequence: intermediate bytes and a final byte (when there is one).
    "\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?",
  ].join("|"),
  "g",
);

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` without escape sequences and control characters (tab and line feed stay). */
export function terminalText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}
