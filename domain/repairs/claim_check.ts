/**
 * The claim tag handed over at intake (API §9 `GET /repair-tickets/:id/claim-check`): its
 * printable forms. `renderClaimCheckText()` is a 40-column text laid out like the POS receipt
 * (domain/printing/text_layout.ts: control characters and whitespace runs become one space,
 * long values wrap at word boundaries under their label, values right-aligned);
 * `renderClaimCheckHtml()` the same content in the shared printable page
 * (domain/printing/html_page.ts: every value HTML-escaped, 80 mm roll or A4).
 */
import { storeLocalDateTime } from "../calendar.ts";
import { type Cents, formatMoney } from "../money.ts";
import {
  fieldsHtml,
  markup,
  type PaperSize,
  renderPrintPage,
  storeHeaderHtml,
} from "../printing/html_page.ts";
import {
  assertPrintWidth,
  centerText,
  finishText,
  labelledRows,
  PRINT_WIDTH,
  type PrintStore,
  storeHeaderRows,
  wrapText,
} from "../printing/text_layout.ts";

export interface ClaimCheckInput {
  store: PrintStore;
  /** The store's IANA time zone, for the intake time. */
  timeZone: string;
  ticketNumber: string;
  accountName: string;
  itemDescription: string;
  itemCount: number;
  serialNumber: string | null;
  intakeAt: Date | null;
  estimateCents: Cents | null;
  dueDate: string | null;
}

/** The tag's rows as label/value pairs (values already formatted). */
function fields(input: ClaimCheckInput): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ["Customer", input.accountName],
    ["Item", input.itemDescription],
    ["Count", String(input.itemCount)],
  ];
  if (input.serialNumber) rows.push(["Serial", input.serialNumber]);
  rows.push(["Intake", input.intakeAt ? storeLocalDateTime(input.intakeAt, input.timeZone) : "-"]);
  if (input.estimateCents !== null) rows.push(["Estimate", formatMoney(input.estimateCents)]);
  if (input.dueDate) rows.push(["Due", input.dueDate]);
  return rows;
}

const TITLE = "REPAIR CLAIM CHECK";
const FOOTER = "Present this tag to collect your item.";

/** The tag as text, every line at most `w` (default 40) characters, ending with "\n". */
export function renderClaimCheckText(input: ClaimCheckInput, w = PRINT_WIDTH): string {
  assertPrintWidth(w, "Claim tag");
  const out = storeHeaderRows(input.store, w);
  const rule = "-".repeat(w);
  out.push(rule);
  out.push(centerText(TITLE, w));
  out.push(centerText(input.ticketNumber, w));
  out.push(rule);
  for (const [label, value] of fields(input)) out.push(...labelledRows(label, value, w));
  out.push(rule);
  for (const text of wrapText(FOOTER, w)) out.push(centerText(text, w));
  return finishText(out);
}

/** The tag as a printable HTML page (the shared page shell: every value escaped). */
export function renderClaimCheckHtml(input: ClaimCheckInput, paper: PaperSize = "roll"): string {
  const header = storeHeaderHtml(input.store);
  const title = markup`<h2>Repair claim check<br>${input.ticketNumber}</h2>`;
  const body = markup`${header}${title}${fieldsHtml(fields(input))}<footer>${FOOTER}</footer>`;
  return renderPrintPage({ title: `Claim check ${input.ticketNumber}`, paper, body });
}
