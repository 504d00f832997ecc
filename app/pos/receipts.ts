/**
 * Receipts (API §8 `GET /transactions/:id/receipt`): the transaction's lines, totals and
 * payments with the store's header, the cashier's and the customer's names, built by the pure
 * `buildReceipt()` (consumable lines never appear).
 */
import { parseMoney } from "../../domain/money.ts";
import { buildReceipt, type Receipt } from "../../domain/pos/receipt_text.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { findUserName } from "../auth/users_repo.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import { findStore } from "../platform/store_repo.ts";
import { findItems } from "./items_repo.ts";
import { findPayments } from "./payments_repo.ts";
import { requireTransaction } from "./transactions.ts";

export async function getReceipt(deps: Pick<AppDeps, "db">, id: string): Promise<Receipt> {
  const tx = await requireTransaction(deps.db, id);
  const [items, payments, store, location] = [
    await findItems(deps.db, tx.id),
    await findPayments(deps.db, tx.id),
    await findStore(deps.db),
    await findLocation(deps.db, tx.locationId),
  ];
  const cashier = tx.createdBy ? await findUserName(deps.db, tx.createdBy) : undefined;
  const account = tx.accountId ? await findAccount(deps.db, tx.accountId) : undefined;
  return buildReceipt({
    store: { name: store.name, address: store.address, phone: store.phone, email: store.email },
    locationName: location?.name ?? null,
    transaction: {
      id: tx.id,
      type: tx.type,
      status: tx.status,
      at: new Date(tx.completedAt ?? tx.createdAt),
      originalTransactionId: tx.originalTransactionId,
    },
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
}
