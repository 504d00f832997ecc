/**
 * Pricing of a pending transaction: the tax rates and exemption that apply, and storing the
 * amounts of every line and the totals that the pure `computeTotals()` (integer cents)
 * gives. Every change of lines or discount recomputes all of them.
 */
import { storeLocalDate } from "../../domain/calendar.ts";
import { formatMoney, parseMoney, parsePercent } from "../../domain/money.ts";
import {
  computeTotals,
  type OrderDiscount,
  parseTaxRates,
  type TaxRates,
  type TransactionTotals,
} from "../../domain/pos/transaction_totals.ts";
import { findActiveTaxExemption } from "../accounts/tax_exemptions.ts";
import type { Db } from "../db/database.ts";
import { findStoreTimezone } from "../platform/store_repo.ts";
import { getRuntimeConfig } from "../platform/runtime_config.ts";
import { type ItemRecord, saveItemAmounts } from "./items_repo.ts";
import {
  type TotalsColumns,
  type TransactionChanges,
  type TransactionRecord,
  updateTransaction,
} from "./transactions_repo.ts";

export interface PricingContext {
  taxRates: TaxRates;
  taxExempt: boolean;
  /** The certificate of the exemption that applies (stored on the transaction, for receipts). */
  taxExemptCertificate: string | null;
}

/** Tax rates from the runtime config; tax exemption of the account on today's store date. */
export async function pricingContext(
  trx: Db,
  accountId: string | null,
  now: Date,
): Promise<PricingContext> {
  const config = await getRuntimeConfig(trx);
  const today = accountId ? storeLocalDate(now, await findStoreTimezone(trx)) : "";
  const exemption = accountId ? await findActiveTaxExemption(trx, accountId, today) : undefined;
  return {
    taxRates: parseTaxRates(config.taxRates),
    taxExempt: exemption !== undefined,
    taxExemptCertificate: exemption?.certificateNumber ?? null,
  };
}

/** The order discount as entered (basis points for percent, cents for amount). */
export function orderDiscountOf(
  tx: Pick<TransactionRecord, "discountKind" | "discountValue">,
): OrderDiscount | null {
  if (!tx.discountKind || tx.discountValue === null) return null;
  return tx.discountKind === "percent"
    ? { kind: "percent" as const, value: parsePercent(tx.discountValue) }
    : { kind: "amount" as const, value: parseMoney(tx.discountValue) };
}

/** What pricing needs of a line. */
export interface PricedLine {
  kind: "sale" | "labor" | "part";
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
}

export function totalsOf(
  lines: readonly PricedLine[],
  discount: OrderDiscount | null,
  context: PricingContext,
): TransactionTotals {
  return computeTotals({
    lines: lines.map((line) => ({
      kind: line.kind,
      quantity: line.quantity,
      unitPriceCents: parseMoney(line.unitPrice),
      taxCategory: line.taxCategory,
      isConsumable: line.isConsumable,
    })),
    discount,
    taxRates: context.taxRates,
    taxExempt: context.taxExempt,
  });
}

export function totalsColumns(totals: TransactionTotals): TotalsColumns {
  return {
    subtotal: formatMoney(totals.subtotalCents),
    discountTotal: formatMoney(totals.discountTotalCents),
    taxTotal: formatMoney(totals.taxTotalCents),
    total: formatMoney(totals.totalCents),
  };
}

/** The amounts of line `index` as stored. */
export function lineAmounts(totals: TransactionTotals, index: number) {
  const line = totals.lines[index]!;
  return {
    gross: formatMoney(line.grossCents),
    discount: formatMoney(line.discountCents),
    net: formatMoney(line.netCents),
    tax: formatMoney(line.taxCents),
  };
}

/** Recomputes and stores every line's amounts and the transaction's totals. */
export async function saveTotals(
  trx: Db,
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  discount: OrderDiscount | null,
  context: PricingContext,
  now: Date,
  extra: TransactionChanges = {},
): Promise<{ tx: TransactionRecord; items: ItemRecord[] }> {
  const totals = totalsOf(items, discount, context);
  const updatedItems = items.map((item, i) => ({ ...item, ...lineAmounts(totals, i) }));
  await saveItemAmounts(trx, updatedItems);
  const updated = await updateTransaction(trx, tx.id, {
    ...extra,
    totals: totalsColumns(totals),
    taxExempt: context.taxExempt,
    taxExemptCertificate: context.taxExemptCertificate,
  }, now);
  return { tx: updated, items: updatedItems };
}
