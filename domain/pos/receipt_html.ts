/**
 * The receipt as a printable HTML page (API §17 `GET /transactions/:id/receipt` with
 * `Accept: text/html`, and the HTML part of an emailed receipt): the same content and figures
 * as the JSON and the 40-column text (`buildReceipt()`), in the shared page shell of
 * domain/printing/html_page.ts (every value escaped; 80 mm roll or A4).
 */
import { formatMoney } from "../money.ts";
import {
  fieldsHtml,
  markup,
  type PaperSize,
  renderPrintPage,
  type SafeHtml,
  storeHeaderHtml,
} from "../printing/html_page.ts";
import {
  paymentLabel,
  printedMoney,
  type Receipt,
  RECEIPT_FOOTER,
  type ReceiptLine,
  type ReceiptPayment,
  showsChange,
  statusMark,
  taxExemptionNote,
  totalLabel,
  TYPE_TITLES,
} from "./receipt_text.ts";

/** A row of an amount printed as the text receipt prints it (a magnitude, see receipt_text.ts). */
function amountRow(label: string, cents: number, className = "", amount = printedMoney(cents)) {
  return markup`<tr class="${className}"><th>${label}</th><td class="num">${amount}</td></tr>`;
}

function lineRow(line: ReceiptLine): SafeHtml {
  const qty = line.quantity === 1
    ? null
    : markup`<br><span class="qty">${line.quantity} x ${printedMoney(line.unitPrice)}</span>`;
  const amount = printedMoney(line.amount);
  return markup`<tr><td>${line.description}${qty}</td><td class="num">${amount}</td></tr>`;
}

function paymentRows(receipt: Receipt, payment: ReceiptPayment): SafeHtml[] {
  const rows = [amountRow(paymentLabel(receipt, payment.method), payment.amount)];
  if (payment.method === "cash" && payment.tendered !== payment.amount) {
    rows.push(amountRow("Tendered", payment.tendered, "sub"));
  }
  if (payment.reference) {
    rows.push(markup`<tr class="sub"><th>Ref</th><td class="num">${payment.reference}</td></tr>`);
  }
  return rows;
}

/** The receipt's page (a whole HTML document). */
export function renderReceiptHtml(receipt: Receipt, paper: PaperSize = "roll"): string {
  const facts: Array<[string, string]> = [
    ["No.", receipt.receiptNumber],
    ["Date", receipt.localTime],
  ];
  if (receipt.originalReceiptNumber) facts.push(["Refund of", receipt.originalReceiptNumber]);
  if (receipt.refundReason) facts.push(["Reason", receipt.refundReason]);
  if (receipt.cashierName) facts.push(["Cashier", receipt.cashierName]);
  if (receipt.customerName) facts.push(["Customer", receipt.customerName]);
  if (receipt.repair) {
    facts.push(["Repair", receipt.repair.ticketNumber], ["Item", receipt.repair.itemDescription]);
    if (receipt.repair.serialNumber) facts.push(["Serial", receipt.repair.serialNumber]);
  }

  const totals = [amountRow("Subtotal", receipt.subtotal)];
  if (receipt.discount !== 0) totals.push(amountRow("Discount", receipt.discount));
  totals.push(amountRow("Tax", receipt.tax));
  const exemption = taxExemptionNote(receipt);
  if (exemption) totals.push(markup`<tr class="sub"><td colspan="2">${exemption}</td></tr>`);
  totals.push(amountRow(totalLabel(receipt), receipt.total, "total"));

  const payments = receipt.payments.flatMap((payment) => paymentRows(receipt, payment));
  if (showsChange(receipt)) payments.push(amountRow("Change", receipt.change));
  if (receipt.balanceDue !== 0) {
    const due = formatMoney(receipt.balanceDue);
    payments.push(amountRow("Balance due", receipt.balanceDue, "total", due));
  }

  const mark = statusMark(receipt.status);
  const head = markup`${storeHeaderHtml(receipt.store)}${
    receipt.locationName ? markup`<p class="center">${receipt.locationName}</p>` : null
  }<h2>${TYPE_TITLES[receipt.type]}</h2>${mark ? markup`<p class="mark">${mark}</p>` : null}`;
  const lines = markup`<table class="lines">${receipt.lines.map(lineRow)}</table>`;
  const paid = payments.length > 0 ? markup`<hr><table class="payments">${payments}</table>` : null;
  const body = markup`${head}${
    fieldsHtml(facts)
  }<hr>${lines}<hr><table class="totals">${totals}</table>${paid}<footer>${RECEIPT_FOOTER}</footer>`;
  return renderPrintPage({ title: `Receipt ${receipt.receiptNumber}`, paper, body });
}
