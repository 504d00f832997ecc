/**
 * The text of shelf labels (API §17), pure: what a label's fonts can draw, and fitting a name
 * into a box (wrap, shrink, then cut with an ellipsis).
 *
 * - PDF labels use the standard Helvetica fonts, which draw WinAnsi (Windows-1252) only;
 *   `toWinAnsi` keeps those characters, folds accented letters it lacks to their base letter
 *   (ő → o) and replaces anything else (emoji, CJK, …) with `?`, so no name can break a label.
 * - PNG labels use bwip-js's built-in OCR-B font (printable ASCII): `toAscii` likewise.
 */

/** The characters of Windows-1252 above Latin-1's printable range that it maps 0x80–0x9F to. */
const CP1252_EXTRAS = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ||
    CP1252_EXTRAS.includes(ch);
}

function isAscii(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return code >= 0x20 && code <= 0x7e;
}

/** Typographic characters spelled in ASCII (for the ASCII-only PNG font). */
const ASCII_SPELLINGS: Record<string, string> = {
  "‘": "'",
  "’": "'",
  "‚": ",",
  "“": '"',
  "”": '"',
  "„": '"',
  "–": "-",
  "—": "-",
  "…": "...",
  "€": "EUR",
  "£": "GBP",
  "ß": "ss",
  "Æ": "AE",
  "æ": "ae",
  "Ø": "O",
  "ø": "o",
  "Œ": "OE",
  "œ": "oe",
  "\u00a0": " ",
};

function sanitize(text: string, keep: (ch: string) => boolean, spell: Record<string, string>) {
  let out = "";
  // By code point, so a surrogate pair (an emoji) becomes one `?`, not two.
  // deno-lint-ignore no-control-regex
  for (const ch of text.normalize("NFC").replace(/[\s\u0000-\u001f\u007f-\u009f]+/gu, " ")) {
    if (keep(ch)) {
      out += ch;
      continue;
    }
    if (spell[ch] !== undefined) {
      out += spell[ch];
      continue;
    }
    const base = ch.normalize("NFD").replace(/\p{M}+/gu, "");
    if (base !== "" && base !== ch && [...base].every(keep)) out += base;
    else if (/\p{M}/u.test(ch)) continue; // a lone combining mark
    else out += "?";
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/** `text` reduced to what the standard PDF fonts draw (WinAnsi), one line, trimmed. */
export function toWinAnsi(text: string): string {
  return sanitize(text, isWinAnsi, { "\u00a0": " " });
}

/** `text` reduced to printable ASCII, one line, trimmed. */
export function toAscii(text: string): string {
  return sanitize(text, isAscii, ASCII_SPELLINGS);
}

/** Width of `text` drawn at font size `size`, in the caller's unit (points, pixels). */
export type MeasureText = (text: string, size: number) => number;

export interface TextBox {
  width: number;
  maxLines: number;
  /** Font sizes tried from `maxSize` down to `minSize` by `step`. */
  maxSize: number;
  minSize: number;
  step?: number;
}

export interface FittedText {
  size: number;
  lines: string[];
}

/**
 * Fits `text` into `box`: the largest size at which it word-wraps into `maxLines` lines no
 * wider than `width`; when even `minSize` is not enough, the text at `minSize` cut to
 * `maxLines` lines, the last ending with `ellipsis`. A word wider than the box is broken.
 */
export function fitText(
  text: string,
  box: TextBox,
  measure: MeasureText,
  ellipsis = "…",
): FittedText {
  const step = box.step ?? 0.5;
  for (let size = box.maxSize; size >= box.minSize - 1e-9; size -= step) {
    const lines = wrapLines(text, box.width, (t) => measure(t, size));
    if (lines.length <= box.maxLines) return { size, lines };
  }
  const size = box.minSize;
  const fits = (t: string) => measure(t, size) <= box.width;
  const lines = wrapLines(text, box.width, (t) => measure(t, size)).slice(0, box.maxLines);
  const last = lines.length - 1;
  if (last >= 0) lines[last] = withEllipsis(lines[last]!, ellipsis, fits);
  return { size, lines };
}

/** Greedy word wrap; words wider than `width` are broken between characters. */
export function wrapLines(text: string, width: number, measure: (t: string) => number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ").filter((w) => w !== "")) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== "") lines.push(line);
    line = "";
    let rest = word;
    while (measure(rest) > width && [...rest].length > 1) {
      const chars = [...rest];
      let n = 1;
      while (n < chars.length && measure(chars.slice(0, n + 1).join("")) <= width) n++;
      lines.push(chars.slice(0, n).join(""));
      rest = chars.slice(n).join("");
    }
    line = rest;
  }
  if (line !== "") lines.push(line);
  return lines;
}

function withEllipsis(line: string, ellipsis: string, fits: (t: string) => boolean): string {
  const chars = [...line];
  while (chars.length > 0 && !fits(`${chars.join("").trimEnd()}${ellipsis}`)) chars.pop();
  return `${chars.join("").trimEnd()}${ellipsis}`;
}
