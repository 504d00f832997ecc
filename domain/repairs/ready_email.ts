/**
 * The "ready for pickup" email (API §9): queued when a ticket enters ready_for_pickup, the
 * email module is enabled and the account has an email address. It names the ticket number,
 * the item and the balance due; control characters in stored text never reach the subject.
 */
import { type Cents, formatMoney } from "../money.ts";

export interface ReadyEmailInput {
  storeName: string;
  storePhone: string | null;
  accountName: string;
  ticketNumber: string;
  itemDescription: string;
  itemCount: number;
  balanceDueCents: Cents;
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, " ").trim();
}

export function readyForPickupEmail(input: ReadyEmailInput): { subject: string; text: string } {
  const item = oneLine(input.itemDescription);
  const count = input.itemCount > 1 ? ` (${input.itemCount} items)` : "";
  const balance = input.balanceDueCents > 0
    ? `Balance due at pickup: ${formatMoney(input.balanceDueCents)} (before tax).`
    : "Nothing is due at pickup.";
  const text = [
    `Hello ${oneLine(input.accountName)},`,
    "",
    `Your repair ${input.ticketNumber} is ready for pickup: ${item}${count}.`,
    balance,
    "",
    "Please bring your claim check when you come by.",
    "",
    oneLine(input.storeName) + (input.storePhone ? ` - ${oneLine(input.storePhone)}` : ""),
  ].join("\n");
  return {
    subject: oneLine(`Your repair ${input.ticketNumber} is ready for pickup`),
    text,
  };
}
