/**
 * The layout of every printable 40-column text (the POS receipt, the repair claim tag, the
 * rental agreement): one set of rules, so the three print alike.
 *
 * - Control characters and runs of whitespace become one space (nothing else reaches paper).
 * - Widths count code points (`Array.from`), so an accented letter is one column.
 * - Long values wrap at word boundaries (words longer than a row are cut), to a row limit,
 *   the last row ending in "..." when anything was left over.
 * - `finishText()` drops trailing blanks and ends every line with "\n".
 */
import type { PostalAddress } from "../address.ts";

/** Columns of a receipt printer's roll (and of every printable text form). */
export const PRINT_WIDTH = 40;

/** The store as a printed header shows it. */
export interface PrintStore {
  name: string;
  address?: PostalAddress | null;
  phone?: string | null;
  email?: string | null;
}

/** Control characters and whitespace runs → one space; trimmed. */
export function cleanText(text: string | null | undefined): string {
  // deno-lint-ignore no-control-regex
  return (text ?? "").replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, " ").trim();
}

function chars(text: string): string[] {
  return Array.from(text);
}

/** Printed width in columns (code points). */
export function textWidth(text: string): number {
  return chars(text).length;
}

/** `text` cut to at most `max` columns. */
export function cutText(text: string, max: number): string {
  const c = chars(text);
  return c.length <= max ? text : c.slice(0, Math.max(0, max)).join("");
}

/** `text` cleaned, cut to `w` and centred (left padding only). */
export function centerText(text: string | null | undefined, w: number): string {
  const t = cutText(cleanText(text), w);
  const pad = Math.floor((w - textWidth(t)) / 2);
  return " ".repeat(pad) + t;
}

/** `left` and `right` on one row of width `w`; `left` is cut to make room. */
export function leftRight(left: string, right: string, w: number): string {
  const r = cutText(right, w);
  const room = w - textWidth(r) - 1;
  if (room <= 0) return r.padStart(w);
  const l = cutText(left, room);
  return l + " ".repeat(w - textWidth(l) - textWidth(r)) + r;
}

/** Word-wraps `text` into rows of at most `w` characters, at most `maxRows` rows. */
export function wrapText(text: string, w: number, maxRows = Infinity): string[] {
  if (!Number.isInteger(w) || w < 4) throw new RangeError("Wrap width must be at least 4");
  const words = cleanText(text).split(" ").filter((word) => word.length > 0);
  const rows: string[] = [];
  let current = "";
  for (let word of words) {
    while (textWidth(word) > w) {
      // A word longer than a row: fill the current row, then cut the word.
      const room = current ? w - textWidth(current) - 1 : w;
      if (room > 0) {
        const head = chars(word).slice(0, room).join("");
        rows.push(current ? `${current} ${head}` : head);
        word = chars(word).slice(room).join("");
      } else {
        rows.push(current);
      }
      current = "";
    }
    if (!current) current = word;
    else if (textWidth(current) + 1 + textWidth(word) <= w) current += ` ${word}`;
    else {
      rows.push(current);
      current = word;
    }
  }
  if (current) rows.push(current);
  if (rows.length > maxRows) {
    const kept = rows.slice(0, maxRows);
    const last = kept[maxRows - 1] as string;
    kept[maxRows - 1] = `${cutText(last, w - 3)}...`;
    return kept;
  }
  return rows;
}

/**
 * `label:` and `value` on one row (value right-aligned) when they fit, else the label alone
 * and the value wrapped below it, indented by two, in at most `maxRows` rows.
 */
export function labelledRows(label: string, value: string, w: number, maxRows = 4): string[] {
  const head = `${cleanText(label)}:`;
  const room = w - textWidth(head) - 1;
  const oneRow = room >= 4 ? wrapText(value, room) : [];
  if (room >= 4 && oneRow.length <= 1) {
    const text = oneRow[0] ?? "";
    return [head + " ".repeat(w - textWidth(head) - textWidth(text)) + text];
  }
  return [cutText(head, w), ...wrapText(value, w - 2, maxRows).map((row) => `  ${row}`)];
}

/** The centred store header: name (two rows at most), address, phone, email. */
export function storeHeaderRows(store: PrintStore, w: number): string[] {
  const out = wrapText(store.name, w, 2).map((text) => centerText(text, w));
  const address = store.address;
  if (address) {
    out.push(centerText(address.line1, w));
    if (cleanText(address.line2)) out.push(centerText(address.line2, w));
    out.push(centerText(cityLine(address), w));
  }
  if (cleanText(store.phone)) out.push(centerText(store.phone, w));
  if (cleanText(store.email)) out.push(centerText(store.email, w));
  return out;
}

/** "Springfield, IL 62701". */
export function cityLine(address: PostalAddress): string {
  return `${cleanText(address.city)}, ${cleanText(address.state)} ${cleanText(address.postalCode)}`;
}

/** Checks a text form's width (at least 20 columns). */
export function assertPrintWidth(w: number, what: string): void {
  if (!Number.isInteger(w) || w < 20) throw new RangeError(`${what} width must be at least 20`);
}

/** The rows as the printed text: trailing blanks dropped, every line ending with "\n". */
export function finishText(rows: readonly string[]): string {
  return rows.map((text) => text.replace(/\s+$/u, "")).join("\n") + "\n";
}
