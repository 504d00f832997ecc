/**
 * Transactions while pending (API §8): create with the first items, add/change/remove
 * items, the order discount; plus reading, listing and receipts. Every change locks the
 * transaction row FOR UPDATE, recomputes all line amounts and totals with the pure
 * `computeTotals()` (integer cents) and stores them.
 */
import {
  BadInputError,
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { formatMoney, parseMoney, parsePercent } from "../../domain/pos/money.ts";
import { buildReceipt, type Receipt } from "../../domain/pos/receipt_text.ts";
import { storeLocalDate } from "../../domain/pos/store_time.ts";
import { assertEditable } from "../../domain/pos/transaction_status.ts";
import {
  computeTotals,
  defaultTaxCategory,
  needsDiscountOverride,
  type OrderDiscount,
  parseDiscount,
  parseTaxRates,
  type TaxRates,
  type TransactionTotals,
} from "../../domain/pos/transaction_totals.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { hasActiveTaxExemption } from "../accounts/tax_exemptions.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/audit_repo.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation, findStore, findStoreTimezone } from "../platform/platform_repo.ts";
import { getRuntimeConfig } from "../platform/settings.ts";
import type { ListParams } from "../schemas.ts";
import { timeRange } from "./drawers.ts";
import { approvalDetails, approveAction } from "./overrides.ts";
import type { CreateTransactionInput, ItemInput, UpdateItemInput } from "./pos_schemas.ts";
import {
  deleteItemRow,
  findItems,
  findPayments,
  findProductsForSale,
  findRegister,
  findTransaction,
  findUnitsForSale,
  findUserName,
  insertItems,
  insertTransaction,
  type ItemRecord,
  listTransactions as listTransactionRows,
  type NewItem,
  type PaymentRecord,
  saveItemAmounts,
  type TotalsColumns,
  type TransactionFilters,
  type TransactionRecord,
  updateItemRow,
  updateTransaction,
} from "./pos_repo.ts";
import { orderDiscountOf } from "./reports.ts";
import { repairTicketPort } from "./repair_ticket_port.ts";

// ================================================================ JSON shapes

export function itemJson(item: ItemRecord) {
  return {
    id: item.id,
    kind: item.kind,
    productId: item.productId,
    unitId: item.unitId,
    originalItemId: item.originalItemId,
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    taxCategory: item.taxCategory,
    isConsumable: item.isConsumable,
    gross: item.gross,
    discount: item.discount,
    net: item.net,
    tax: item.tax,
    total: formatMoney(parseMoney(item.net) + parseMoney(item.tax)),
    refundedQuantity: item.refundedQuantity,
  };
}

export function paymentJson(payment: PaymentRecord) {
  return {
    id: payment.id,
    method: payment.method,
    amount: payment.amount,
    tendered: payment.tendered,
    change: payment.change,
    reference: payment.reference,
    isRefund: payment.isRefund,
    createdAt: payment.createdAt,
  };
}

export function transactionSummaryJson(tx: TransactionRecord) {
  return {
    id: tx.id,
    number: tx.number,
    type: tx.type,
    status: tx.status,
    locationId: tx.locationId,
    registerId: tx.registerId,
    accountId: tx.accountId,
    drawerSessionId: tx.drawerSessionId,
    repairTicketId: tx.repairTicketId,
    originalTransactionId: tx.originalTransactionId,
    discount: tx.discountKind && tx.discountValue !== null
      ? { kind: tx.discountKind, value: tx.discountValue }
      : null,
    subtotal: tx.subtotal,
    discountTotal: tx.discountTotal,
    taxTotal: tx.taxTotal,
    total: tx.total,
    amountPaid: tx.amountPaid,
    balanceDue: formatMoney(parseMoney(tx.total) - parseMoney(tx.amountPaid)),
    taxExempt: tx.taxExempt,
    reason: tx.reason,
    voidReason: tx.voidReason,
    createdBy: tx.createdBy,
    approvedBy: tx.approvedBy ?? tx.voidApprovedBy,
    completedBy: tx.completedBy,
    voidedBy: tx.voidedBy,
    completedAt: tx.completedAt,
    voidedAt: tx.voidedAt,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

export type TransactionJson =
  & ReturnType<typeof transactionSummaryJson>
  & { items: ReturnType<typeof itemJson>[]; payments: ReturnType<typeof paymentJson>[] };

export function transactionJson(
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  payments: readonly PaymentRecord[],
): TransactionJson {
  return {
    ...transactionSummaryJson(tx),
    items: items.map(itemJson),
    payments: payments.map(paymentJson),
  };
}

/** Reads a transaction with its items and payments (three queries). */
export async function loadTransactionJson(db: Db, tx: TransactionRecord): Promise<TransactionJson> {
  return transactionJson(tx, await findItems(db, tx.id), await findPayments(db, tx.id));
}

export async function getTransaction(db: Db, id: string): Promise<TransactionJson> {
  const tx = await findTransaction(db, id);
  if (!tx) throw new NotFoundError(`Transaction "${id}" does not exist`);
  return await loadTransactionJson(db, tx);
}

export async function listTransactions(
  deps: Pick<AppDeps, "db">,
  params: ListParams & Omit<TransactionFilters, "fromAt" | "toAt"> & { from?: string; to?: string },
) {
  const range = await timeRange(deps.db, params.from, params.to);
  const page = await listTransactionRows(deps.db, { ...params, ...range });
  return { data: page.data.map(transactionSummaryJson), pagination: page.pagination };
}

/** Locks the transaction row (FOR UPDATE) or answers 404. */
export async function lockTransaction(trx: Db, id: string): Promise<TransactionRecord> {
  const tx = await findTransaction(trx, id, true);
  if (!tx) throw new NotFoundError(`Transaction "${id}" does not exist`);
  return tx;
}

// ================================================================ pricing

export interface PricingContext {
  taxRates: TaxRates;
  taxExempt: boolean;
}

/** Tax rates from the runtime config; tax exemption of the account on today's store date. */
export async function pricingContext(
  trx: Db,
  accountId: string | null,
  now: Date,
): Promise<PricingContext> {
  const config = await getRuntimeConfig(trx);
  let taxExempt = false;
  if (accountId) {
    const today = storeLocalDate(now, await findStoreTimezone(trx));
    taxExempt = await hasActiveTaxExemption(trx, accountId, today);
  }
  return { taxRates: parseTaxRates(config.taxRates), taxExempt };
}

interface PricedLine {
  kind: "sale" | "labor" | "part";
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
}

function totalsOf(
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

function totalsColumns(totals: TransactionTotals): TotalsColumns {
  return {
    subtotal: formatMoney(totals.subtotalCents),
    discountTotal: formatMoney(totals.discountTotalCents),
    taxTotal: formatMoney(totals.taxTotalCents),
    total: formatMoney(totals.totalCents),
  };
}

function lineAmounts(totals: TransactionTotals, index: number) {
  const line = totals.lines[index]!;
  return {
    gross: formatMoney(line.grossCents),
    discount: formatMoney(line.discountCents),
    net: formatMoney(line.netCents),
    tax: formatMoney(line.taxCents),
  };
}

/** Recomputes and stores every line's amounts and the transaction's totals. */
async function saveTotals(
  trx: Db,
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  discount: OrderDiscount | null,
  context: PricingContext,
  now: Date,
  extra: Parameters<typeof updateTransaction>[2] = {},
): Promise<{ tx: TransactionRecord; items: ItemRecord[] }> {
  const totals = totalsOf(items, discount, context);
  const updatedItems = items.map((item, i) => ({ ...item, ...lineAmounts(totals, i) }));
  await saveItemAmounts(trx, updatedItems);
  const updated = await updateTransaction(trx, tx.id, {
    ...extra,
    totals: totalsColumns(totals),
    taxExempt: context.taxExempt,
  }, now);
  return { tx: updated, items: updatedItems };
}

// ================================================================ items

interface ResolvedItem extends PricedLine {
  productId: string | null;
  unitId: string | null;
  description: string;
}

/**
 * Applies product defaults and checks references of new lines, with one query for the
 * products and one for the units: consumable or inactive products → 400 `not_sellable`, a
 * unit that is not in stock → 409 `unit_unavailable`.
 */
async function resolveItems(
  trx: Db,
  inputs: readonly ItemInput[],
  pathOf: (index: number, field: string) => string,
): Promise<ResolvedItem[]> {
  const units = await findUnitsForSale(trx, [
    ...new Set(inputs.flatMap((i) => (i.unitId ? [i.unitId] : []))),
  ]);
  const unitById = new Map(units.map((u) => [u.id, u]));
  const productIds = new Set<string>();
  inputs.forEach((input, i) => {
    if (input.unitId) {
      const unit = unitById.get(input.unitId);
      if (!unit) {
        throw new InvalidReferenceError(
          pathOf(i, "unitId"),
          `Unit "${input.unitId}" does not exist`,
        );
      }
      if (input.productId && input.productId !== unit.product_id) {
        throw new InvalidReferenceError(
          pathOf(i, "unitId"),
          `Unit "${input.unitId}" is not a unit of product "${input.productId}"`,
        );
      }
      productIds.add(unit.product_id);
    }
    if (input.productId) productIds.add(input.productId);
  });
  const products = await findProductsForSale(trx, [...productIds]);
  const productById = new Map(products.map((p) => [p.id, p]));
  const seenUnits = new Set<string>();

  return inputs.map((input, i) => {
    const unit = input.unitId ? unitById.get(input.unitId)! : undefined;
    const productId = input.productId ?? unit?.product_id ?? null;
    const product = productId ? productById.get(productId) : undefined;
    if (productId && !product) {
      throw new InvalidReferenceError(
        pathOf(i, "productId"),
        `Product "${productId}" does not exist`,
      );
    }
    if (product && (product.is_consumable || product.type === "consumable")) {
      throw new BadInputError(
        "not_sellable",
        `Product "${product.name}" is a consumable (internal job costing) and cannot be sold`,
        [{ path: pathOf(i, "productId"), message: "Consumable products are not sellable" }],
      );
    }
    if (product && !product.is_active) {
      throw new BadInputError(
        "not_sellable",
        `Product "${product.name}" is inactive and cannot be sold`,
        [{ path: pathOf(i, "productId"), message: "Inactive products are not sellable" }],
      );
    }
    if (unit) {
      if (input.quantity !== 1) {
        throw new ValidationError([{
          path: pathOf(i, "quantity"),
          message: "A line with a unit has quantity 1",
        }]);
      }
      if (seenUnits.has(unit.id)) {
        throw new ValidationError([{ path: pathOf(i, "unitId"), message: "Unit listed twice" }]);
      }
      seenUnits.add(unit.id);
      if (unit.status !== "in_stock") {
        throw new ConflictError(
          "unit_unavailable",
          `Unit "${unit.id}" is not in stock (status ${unit.status})`,
        );
      }
    }
    const description = input.description ?? product?.name;
    const unitPrice = input.unitPrice ?? product?.price;
    const issues = [];
    if (description === undefined) {
      issues.push({ path: pathOf(i, "description"), message: "Required without productId" });
    }
    if (unitPrice === undefined) {
      issues.push({ path: pathOf(i, "unitPrice"), message: "Required without productId" });
    }
    if (issues.length > 0) throw new ValidationError(issues);
    const kind = input.kind ?? "sale";
    return {
      kind,
      productId,
      unitId: unit?.id ?? null,
      description: description!,
      quantity: input.quantity,
      unitPrice: formatMoney(parseMoney(unitPrice!)),
      taxCategory: input.taxCategory ??
        (kind === "labor" ? "service" : product?.tax_category ?? defaultTaxCategory(kind)),
      isConsumable: false,
    };
  });
}

function newItemRows(
  deps: Pick<AppDeps, "ids">,
  transactionId: string,
  resolved: readonly ResolvedItem[],
  totals: TransactionTotals,
  offset: number,
  now: Date,
): NewItem[] {
  return resolved.map((item, i) => ({
    id: deps.ids.uuid(),
    transactionId,
    kind: item.kind,
    productId: item.productId,
    unitId: item.unitId,
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    taxCategory: item.taxCategory,
    isConsumable: item.isConsumable,
    ...lineAmounts(totals, offset + i),
    // Keeps the order of lines stable within one request.
    createdAt: new Date(now.getTime() + i),
  }));
}

// ================================================================ create

export async function createTransaction(
  deps: AppDeps,
  actor: Actor,
  input: CreateTransactionInput,
): Promise<TransactionJson> {
  if (input.type === "repair_payment" && !input.repairTicketId) {
    throw new ValidationError([{
      path: "repairTicketId",
      message: "Required for a repair_payment transaction",
    }]);
  }
  if (input.type !== "repair_payment" && input.repairTicketId) {
    throw new ValidationError([{
      path: "repairTicketId",
      message: "Only repair_payment transactions refer to a repair ticket",
    }]);
  }
  return await withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    if (!(await findLocation(trx, input.locationId))) {
      throw new InvalidReferenceError(
        "locationId",
        `Location "${input.locationId}" does not exist`,
      );
    }
    if (input.registerId) {
      const register = await findRegister(trx, input.registerId);
      if (!register || register.locationId !== input.locationId) {
        throw new InvalidReferenceError(
          "registerId",
          `Register "${input.registerId}" does not exist at this location`,
        );
      }
    }
    if (input.accountId && !(await findAccount(trx, input.accountId))) {
      throw new InvalidReferenceError("accountId", `Account "${input.accountId}" does not exist`);
    }
    if (input.type === "repair_payment") {
      await assertRepairTicketPayable(trx, input.repairTicketId!);
    }
    const resolved = await resolveItems(trx, input.items, (i, f) => `items[${i}].${f}`);
    const context = await pricingContext(trx, input.accountId ?? null, now);
    const totals = totalsOf(resolved, null, context);
    const tx = await insertTransaction(trx, {
      id: deps.ids.uuid(),
      type: input.type,
      status: "pending",
      locationId: input.locationId,
      registerId: input.registerId ?? null,
      accountId: input.accountId ?? null,
      repairTicketId: input.repairTicketId ?? null,
      taxExempt: context.taxExempt,
      createdBy: actor.userId,
      totals: totalsColumns(totals),
      now,
    });
    const items = await insertItems(trx, newItemRows(deps, tx.id, resolved, totals, 0, now));
    return transactionJson(tx, items, []);
  });
}

/** A repair_payment needs the repairs feature and a ticket that is not cancelled. */
export async function assertRepairTicketPayable(trx: Db, ticketId: string): Promise<void> {
  const port = repairTicketPort();
  if (!port) {
    throw new InvalidReferenceError("repairTicketId", "Repair tickets are not available");
  }
  const status = await port.findTicketStatus(trx, ticketId);
  if (status === undefined) {
    throw new InvalidReferenceError("repairTicketId", `Repair ticket "${ticketId}" does not exist`);
  }
  if (status === "cancelled") {
    throw new ConflictError(
      "invalid_transition",
      `Repair ticket "${ticketId}" is cancelled and cannot be paid`,
    );
  }
}

// ================================================================ item edits

export async function addItem(
  deps: AppDeps,
  transactionId: string,
  input: ItemInput,
): Promise<{ item: ReturnType<typeof itemJson>; transaction: TransactionJson }> {
  return await withTransaction(deps.db, async (trx) => {
    const tx = await lockTransaction(trx, transactionId);
    assertEditable(tx);
    const now = deps.clock.now();
    const [resolved] = await resolveItems(trx, [input], (_i, f) => f);
    const existing = await findItems(trx, tx.id);
    if (resolved!.unitId && existing.some((i) => i.unitId === resolved!.unitId)) {
      throw new ValidationError([{ path: "unitId", message: "The unit is already on this sale" }]);
    }
    const context = await pricingContext(trx, tx.accountId, now);
    const lastAt = existing.reduce((max, i) => Math.max(max, Date.parse(i.createdAt)), 0);
    const at = new Date(Math.max(now.getTime(), lastAt + 1));
    const [inserted] = await insertItems(
      trx,
      newItemRows(
        deps,
        tx.id,
        [resolved!],
        totalsOf(
          [...existing, resolved!],
          orderDiscountOf(tx),
          context,
        ),
        existing.length,
        at,
      ),
    );
    const saved = await saveTotals(
      trx,
      tx,
      [...existing, inserted!],
      orderDiscountOf(tx),
      context,
      now,
    );
    const item = saved.items.find((i) => i.id === inserted!.id)!;
    return {
      item: itemJson(item),
      transaction: transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id)),
    };
  });
}

export async function changeItem(
  deps: AppDeps,
  transactionId: string,
  itemId: string,
  input: UpdateItemInput,
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const tx = await lockTransaction(trx, transactionId);
    const items = await findItems(trx, tx.id);
    const item = items.find((i) => i.id === itemId);
    if (!item) throw new NotFoundError(`Item "${itemId}" is not on transaction "${tx.id}"`);
    assertEditable(tx);
    if (item.unitId && input.quantity !== undefined && input.quantity !== 1) {
      throw new ValidationError([{
        path: "quantity",
        message: "A line with a unit has quantity 1",
      }]);
    }
    const changed: ItemRecord = {
      ...item,
      ...(input.kind !== undefined ? { kind: input.kind } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.quantity !== undefined ? { quantity: input.quantity } : {}),
      ...(input.unitPrice !== undefined
        ? { unitPrice: formatMoney(parseMoney(input.unitPrice)) }
        : {}),
      ...(input.taxCategory !== undefined ? { taxCategory: input.taxCategory } : {}),
    };
    await updateItemRow(trx, itemId, changed);
    const now = deps.clock.now();
    const context = await pricingContext(trx, tx.accountId, now);
    const saved = await saveTotals(
      trx,
      tx,
      items.map((i) => (i.id === itemId ? changed : i)),
      orderDiscountOf(tx),
      context,
      now,
    );
    return transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id));
  });
}

export async function removeItem(
  deps: AppDeps,
  transactionId: string,
  itemId: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const tx = await lockTransaction(trx, transactionId);
    const items = await findItems(trx, tx.id);
    if (!items.some((i) => i.id === itemId)) {
      throw new NotFoundError(`Item "${itemId}" is not on transaction "${tx.id}"`);
    }
    assertEditable(tx);
    await deleteItemRow(trx, itemId);
    const now = deps.clock.now();
    const context = await pricingContext(trx, tx.accountId, now);
    await saveTotals(
      trx,
      tx,
      items.filter((i) => i.id !== itemId),
      orderDiscountOf(tx),
      context,
      now,
    );
  });
}

// ================================================================ discount

/**
 * Sets (or, with value 0, removes) the order discount. Above the configured threshold it
 * needs a manager override when `managerOverride.discount` is on; then the approval is
 * audited as `pos.discount_override` in the same transaction.
 */
export async function setDiscount(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { kind: "percent" | "amount"; value: string; override?: { code: string } },
): Promise<TransactionJson> {
  const discount = parseDiscount({ kind: input.kind, value: input.value });
  const before = await findTransaction(deps.db, transactionId);
  if (!before) throw new NotFoundError(`Transaction "${transactionId}" does not exist`);
  assertEditable(before);
  const config = await getRuntimeConfig(deps.db);
  const threshold = parsePercent(config.discountApprovalThresholdPercent);
  const neededBefore = needsDiscountOverride(discount, parseMoney(before.subtotal), threshold);
  let approver = await approveAction(
    deps,
    actor,
    "discount",
    config.managerOverride,
    input.override,
    neededBefore,
  );
  return await withTransaction(deps.db, async (trx) => {
    const tx = await lockTransaction(trx, transactionId);
    assertEditable(tx);
    const needed = config.managerOverride.discount &&
      needsDiscountOverride(discount, parseMoney(tx.subtotal), threshold);
    if (needed && !approver) {
      // The subtotal changed since the first look: the discount now needs an approval.
      approver = await approveAction(
        deps,
        actor,
        "discount",
        config.managerOverride,
        input.override,
      );
    }
    const now = deps.clock.now();
    const items = await findItems(trx, tx.id);
    const context = await pricingContext(trx, tx.accountId, now);
    const cleared = discount.value === 0;
    const saved = await saveTotals(trx, tx, items, cleared ? null : discount, context, now, {
      discountKind: cleared ? null : discount.kind,
      discountValue: cleared ? null : input.value,
    });
    if (needed && approver) {
      await recordAudit(trx, {
        actorId: actor.userId,
        actorEmail: actor.email,
        action: "pos.discount_override",
        entityType: "transaction",
        entityId: tx.id,
        details: {
          kind: discount.kind,
          value: input.value,
          discountTotal: saved.tx.discountTotal,
          subtotal: saved.tx.subtotal,
          ...approvalDetails(actor, approver),
        },
      }, { id: deps.ids.uuid(), at: now });
    }
    return transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id));
  });
}

// ================================================================ receipts

export async function getReceipt(deps: Pick<AppDeps, "db">, id: string): Promise<Receipt> {
  const tx = await findTransaction(deps.db, id);
  if (!tx) throw new NotFoundError(`Transaction "${id}" does not exist`);
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
