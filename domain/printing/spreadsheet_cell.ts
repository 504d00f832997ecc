/**
 * The text of a CSV cell that a spreadsheet shows instead of running (CSV or formula
 * injection, OWASP): a cell starting with `=`, `+`, `-`, `@`, tab or carriage return would be
 * read by Excel, LibreOffice or Google Sheets as a formula (`=HYPERLINK(...)` sending data
 * away, `@SUM(...)`, DDE `-2+3+cmd|...`), so such a cell gets a leading single quote (`'`),
 * which the spreadsheet shows as text.
 *
 * A plain decimal number is left as it is (`-12.50`, `-3`, `1250.00`): the product's own
 * amounts and counts, a refund or an over/short among them, stay numbers a spreadsheet can add
 * up. A number runs nothing, so this holds even when stored text happens to be one.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** `text` with a leading `'` when a spreadsheet would take it for a formula. */
export function spreadsheetCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
