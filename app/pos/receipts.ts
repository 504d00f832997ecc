/**
 * Receipts (API §8 `GET /transactions/:id/receipt`, §17): the transaction's lines, totals and
 * payments with the store's header, the cashier's and the customer's names, numbered with its
 * receipt number (a refund also names its original's and its reason; a repair payment its
 * ticket and instrument, through the repairs port; a tax-exempt one its certificate), built by
 * the pure `buildReceipt()` (consumable lines never appear).
 *
 * A receipt opens in a browser from a signed URL (`receiptLink`: no token, so a link that is
 * printed, emailed or opened on another device works), signed like files' URLs for the
 * receipt's own purpose: it serves that receipt's page only, until it expires.
 */
import { parseMoney } from "../../domain/money.ts";
import type { PaperSize } from "../../domain/printing/html_page.ts";
import { buildReceipt, type Receipt } from "../../domain/pos/receipt_text.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { findUserName } from "../auth/users_repo.ts";
import type { AppDeps } from "../deps.ts";
import {
  requirePrintoutSignature,
  type SignedQuery,
  signPrintoutUrl,
} from "../files/signed_urls.ts";
import { findLocation } from "../platform/locations_repo.ts";
import { printedStore } from "../platform/store.ts";
import { findStore } from "../platform/store_repo.ts";
import { findItems } from "./items_repo.ts";
import { findPayments } from "./payments_repo.ts";
import { requireTransaction } from "./transactions.ts";
import { findTransaction } from "./transactions_repo.ts";

type ReceiptDeps = Pick<AppDeps, "db" | "repairTickets">;

export async function getReceipt(deps: ReceiptDeps, id: string): Promise<Receipt> {
  return (await loadReceipt(deps, id)).receipt;
}

/** The receipt of transaction `id` (404 when there is none) and its account's email, if any. */
export async function loadReceipt(
  deps: ReceiptDeps,
  id: string,
): Promise<{ receipt: Receipt; accountEmail: string | null }> {
  const db = deps.db;
  const tx = await requireTransaction(db, id);
  const [items, payments, store, location] = [
    await findItems(db, tx.id),
    await findPayments(db, tx.id),
    await findStore(db),
    await findLocation(db, tx.locationId),
  ];
  const cashier = tx.createdBy ? await findUserName(db, tx.createdBy) : undefined;
  const account = tx.accountId ? await findAccount(db, tx.accountId) : undefined;
  const original = tx.originalTransactionId
    ? await findTransaction(db, tx.originalTransactionId)
    : undefined;
  const repair = tx.repairTicketId && deps.repairTickets
    ? await deps.repairTickets.findTicketForReceipt(db, tx.repairTicketId)
    : undefined;
  const receipt = buildReceipt({
    store: printedStore(store),
    locationName: location?.name ?? null,
    transaction: {
      id: tx.id,
      number: tx.number,
      type: tx.type,
      status: tx.status,
      at: new Date(tx.completedAt ?? tx.createdAt),
      originalTransactionId: tx.originalTransactionId,
      originalNumber: original?.number ?? null,
      reason: tx.reason,
      taxExempt: tx.taxExempt,
      taxExemptCertificate: tx.taxExemptCertificate,
    },
    repair: repair ?? null,
    timeZone: store.timezone,
    cashierName: cashier ?? null,
    customerName: account?.name ?? null,
    lines: items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unitPriceCents: parseMoney(item.unitPrice),
      isConsumable: item.isConsumable,
      amountCents: parseMoney(item.gross),
    })),
    totals: {
      subtotalCents: parseMoney(tx.subtotal),
      discountTotalCents: parseMoney(tx.discountTotal),
      taxTotalCents: parseMoney(tx.taxTotal),
      totalCents: parseMoney(tx.total),
    },
    payments: payments.map((p) => ({
      method: p.method,
      amountCents: parseMoney(p.amount),
      tenderedCents: parseMoney(p.tendered),
      changeCents: parseMoney(p.change),
      reference: p.reference,
    })),
  });
  return { receipt, accountEmail: account?.email ?? null };
}

/** Signatures of receipt links are made for this purpose only (worthless on other routes). */
const RECEIPT_LINK = "receipt:";

type LinkDeps = ReceiptDeps & Pick<AppDeps, "config" | "clock">;

/**
 * A signed URL opening the receipt's printable page without a token until `expiresAt`
 * (`paper` chooses the page's layout); 404 for an unknown transaction.
 */
export async function receiptLink(
  deps: LinkDeps,
  id: string,
  options: { paper?: PaperSize; ttlSeconds?: number } = {},
): Promise<{ url: string; expiresAt: string }> {
  const tx = await requireTransaction(deps.db, id);
  const txId = tx.id.toLowerCase();
  return signPrintoutUrl(
    deps.config,
    {
      id: txId,
      routeUrl: `${deps.config.publicUrl}/v1/transactions/${txId}/receipt/print`,
      purpose: RECEIPT_LINK,
      options: { paper: options.paper },
    },
    deps.clock.now(),
    options.ttlSeconds,
  );
}

/**
 * The receipt a signed URL opens: a tampered or expired signature → 403 invalid_signature
 * (before any lookup); a transaction that is gone → 404.
 */
export async function openLinkedReceipt(
  deps: LinkDeps,
  id: string,
  query: SignedQuery,
): Promise<Receipt> {
  await requirePrintoutSignature(
    deps.config,
    { id, purpose: RECEIPT_LINK },
    query,
    deps.clock.now(),
    "receipt",
  );
  return await getReceipt(deps, id);
}
