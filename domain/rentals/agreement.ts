/**
 * The rental agreement (API §17 `GET /rentals/:id/agreement`): a summary of the rental to
 * print and sign at the counter: the parties (the store and the account, with the student
 * when there is one), the instrument and its serial, the rate and billing, the deposit and
 * the rent-to-own terms. `renderAgreementText()` is a 40-column text laid out like the POS
 * receipt and the claim tag (domain/printing/text_layout.ts); `renderAgreementHtml()` the
 * same content in the shared printable page (domain/printing/html_page.ts: every value
 * escaped, 80 mm roll or A4).
 */
import type { PostalAddress } from "../address.ts";
import { type BasisPoints, type Cents, formatMoney, formatPercent } from "../money.ts";
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
  cityLine,
  cleanText,
  finishText,
  labelledRows,
  PRINT_WIDTH,
  type PrintStore,
  storeHeaderRows,
  wrapText,
} from "../printing/text_layout.ts";

export interface AgreementInput {
  store: PrintStore;
  rentalNumber: string;
  status: string;
  account: {
    accountNumber: string;
    name: string;
    phone?: string | null;
    email?: string | null;
    address?: PostalAddress | null;
  };
  /** The student (a member of the account), when the rental names one. */
  memberName: string | null;
  productName: string;
  serialNumber: string | null;
  startDate: string;
  dueDate: string | null;
  billingInterval: "monthly" | "weekly";
  rateCents: Cents;
  depositCents: Cents | null;
  rentToOwn: {
    purchasePriceCents: Cents;
    equityPercentBp: BasisPoints;
    equityCents: Cents;
    payoffCents: Cents;
  } | null;
}

type Rows = Array<[string, string]>;

const PERIOD: Record<AgreementInput["billingInterval"], string> = {
  monthly: "month",
  weekly: "week",
};

/** The agreement in sections of label/value rows (values formatted), shared by both forms. */
export function agreementSections(input: AgreementInput): {
  customer: Rows;
  rental: Rows;
  rentToOwn: Rows | null;
  terms: string[];
} {
  const account = input.account;
  const customer: Rows = [["Customer", account.name], ["Account", account.accountNumber]];
  if (account.address) {
    const street = [account.address.line1, account.address.line2 ?? ""].map(cleanText)
      .filter((part) => part !== "").join(", ");
    customer.push(["Address", `${street}, ${cityLine(account.address)}`]);
  }
  if (cleanText(account.phone)) customer.push(["Phone", account.phone!]);
  if (cleanText(account.email)) customer.push(["Email", account.email!]);
  if (input.memberName) customer.push(["Student", input.memberName]);

  const period = PERIOD[input.billingInterval];
  const rental: Rows = [["Instrument", input.productName]];
  rental.push(["Serial", input.serialNumber ?? "-"]);
  rental.push(["Start", input.startDate]);
  if (input.dueDate) rental.push(["Due back", input.dueDate]);
  rental.push(["Rate", `${formatMoney(input.rateCents)} / ${period}`]);
  if (input.depositCents !== null) rental.push(["Deposit", formatMoney(input.depositCents)]);
  rental.push(["Status", input.status]);

  const terms = [
    `A charge of ${formatMoney(input.rateCents)} is due on the start date and every ` +
    `${period} after it while the rental is active.`,
  ];
  let rentToOwn: Rows | null = null;
  const own = input.rentToOwn;
  if (own) {
    rentToOwn = [
      ["Purchase price", formatMoney(own.purchasePriceCents)],
      ["Equity per charge", `${formatPercent(own.equityPercentBp)}%`],
      ["Equity to date", formatMoney(own.equityCents)],
      ["Payoff", formatMoney(own.payoffCents)],
    ];
    terms.push(
      `Rent-to-own: each paid charge credits ${formatPercent(own.equityPercentBp)}% of it ` +
        `toward the purchase price of ${formatMoney(own.purchasePriceCents)}; paying the ` +
        `payoff buys the instrument.`,
    );
  }
  return { customer, rental, rentToOwn, terms };
}

const TITLE = "RENTAL AGREEMENT";
const SIGNATURES = ["Customer signature", "For the store"];

/** The agreement as text, every line at most `w` (default 40) characters, ending with "\n". */
export function renderAgreementText(input: AgreementInput, w = PRINT_WIDTH): string {
  assertPrintWidth(w, "Agreement");
  const { customer, rental, rentToOwn, terms } = agreementSections(input);
  const out = storeHeaderRows(input.store, w);
  const rule = "-".repeat(w);
  const rows = (list: Rows) => list.flatMap(([label, value]) => labelledRows(label, value, w));
  out.push(rule, centerText(TITLE, w), centerText(input.rentalNumber, w), rule);
  out.push(...rows(customer), rule, ...rows(rental), rule);
  if (rentToOwn) out.push(centerText("RENT-TO-OWN", w), ...rows(rentToOwn), rule);
  for (const term of terms) out.push(...wrapText(term, w, 6));
  for (const label of SIGNATURES) out.push("", "", "_".repeat(w), label);
  return finishText(out);
}

/** The agreement as a printable HTML page. */
export function renderAgreementHtml(input: AgreementInput, paper: PaperSize = "roll"): string {
  const { customer, rental, rentToOwn, terms } = agreementSections(input);
  const header = storeHeaderHtml(input.store);
  const title = markup`<h2>Rental agreement<br>${input.rentalNumber}</h2>`;
  const own = rentToOwn ? markup`<hr><h2>Rent-to-own</h2>${fieldsHtml(rentToOwn)}` : null;
  const termsHtml = terms.map((term) => markup`<p>${term}</p>`);
  const signatures = SIGNATURES.map((label) => markup`<p class="sign">${label}</p>`);
  const body = markup`${header}${title}${fieldsHtml(customer)}<hr>${
    fieldsHtml(rental)
  }${own}<hr>${termsHtml}${signatures}`;
  return renderPrintPage({ title: `Rental agreement ${input.rentalNumber}`, paper, body });
}
