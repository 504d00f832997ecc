/**
 * The emailed receipt (API §17 `POST /transactions/:id/receipt/email`): the subject, and the
 * receipt's two printed forms as the message's text and HTML parts.
 */
import { cleanText, cutText } from "../printing/text_layout.ts";
import { renderReceiptHtml } from "./receipt_html.ts";
import { type Receipt, renderReceiptText } from "./receipt_text.ts";

export interface ReceiptMail {
  subject: string;
  text: string;
  html: string;
}

/** "Your receipt S-0001234 from Harmony Music" (a refund: "Your refund receipt ..."). */
export function receiptEmail(receipt: Receipt): ReceiptMail {
  const kind = receipt.type === "refund" ? "refund receipt" : "receipt";
  const store = cutText(cleanText(receipt.store.name), 100);
  return {
    subject: `Your ${kind} ${receipt.receiptNumber}${store ? ` from ${store}` : ""}`,
    text: renderReceiptText(receipt),
    html: renderReceiptHtml(receipt, "roll"),
  };
}
