/**
 * Lines of a pending transaction (API §8): add, change, remove. Each locks the transaction
 * row FOR UPDATE, then recomputes and stores every line's amounts and the totals. A change
 * that may price a line below its product's price or change the subtotal (a line priced by
 * the cashier, a new quantity or price, a removed line) goes through the review of the
 * sale's discounts (price_approval.ts): a line priced further below its price, or a discount
 * share raised beyond the threshold and beyond the share approved (issue 42: the order
 * discount's share grows as lines are removed), needs the manager override. A first look
 * runs before the transaction, so an override code is checked outside it, and the binding
 * one on the locked transaction (`withApproval`, overrides.ts).
 */
import { NotFoundError } from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { assertUnitLineQuantity, assertUnitNotOnSale } from "../../domain/pos/sale_rules.ts";
import { assertEditable, assertLinesChangeable } from "../../domain/pos/transaction_status.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  deleteItemRow,
  findItems,
  insertItems,
  type ItemRecord,
  updateItemRow,
} from "./items_repo.ts";
import { findPayments } from "./payments_repo.ts";
import type { AddItemInput, ItemInput, UpdateItemInput } from "./pos_schemas.ts";
import { orderDiscountOf, pricingContext, saveTotals, totalsOf } from "./pricing.ts";
import { newItemRows, resolveLines } from "./sale_lines.ts";
import {
  type ItemJson,
  itemJson,
  type TransactionJson,
  transactionJson,
} from "./transaction_json.ts";
import { requireLockedTransaction, requireTransaction } from "./transactions.ts";
import type { TransactionChanges, TransactionRecord } from "./transactions_repo.ts";
import { type Approver, withApproval } from "./overrides.ts";
import {
  approvalColumns,
  auditPriceReductions,
  auditShareApproval,
  type GrantedShare,
  grantedShare,
  NO_PRICE_REVIEW,
  type PriceReview,
  reviewLinePrices,
  saleDiscountsOf,
  type ShareChange,
} from "./price_approval.ts";
import type { Actor } from "../actor.ts";
import type { Db } from "../db/database.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import type { SaleLine } from "../../domain/pos/sale_rules.ts";

function itemNotOnTransaction(itemId: string, transactionId: string): NotFoundError {
  return new NotFoundError(
    "not_found",
    `Item "${itemId}" is not on transaction "${transactionId}"`,
  );
}

/** The transaction's changes that store a granted share (none without one). */
function grantedColumns(granted: GrantedShare | null): TransactionChanges {
  return granted ? { discountApproval: approvalColumns(granted.share, granted.approver) } : {};
}

/** Audits a granted share as `pos.discount_override` (nothing without one). */
async function auditGranted(
  deps: AppDeps,
  trx: Db,
  actor: Actor,
  tx: TransactionRecord,
  granted: GrantedShare | null,
  change: ShareChange,
  itemId: string,
): Promise<void> {
  if (granted) await auditShareApproval(deps, trx, actor, tx, { change, ...granted }, { itemId });
}

/** The catalogue-price review of adding `line` to `tx`, whose lines are `existing`. */
type NewLineReview = (
  db: Db,
  tx: TransactionRecord,
  line: SaleLine,
  existing: ItemRecord[],
) => Promise<PriceReview>;

/**
 * Adds a line. A line priced below its product's price is a discount (API §8): beyond the
 * threshold (alone, or with the other lines' reductions and the order discount) it needs
 * `override`; it is audited as `pos.price_override`.
 */
export async function addItem(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: AddItemInput,
): Promise<{ item: ItemJson; transaction: TransactionJson }> {
  const { override, ...lineInput } = input;
  const mayBeReduced = lineInput.unitPrice !== undefined &&
    (lineInput.productId !== undefined || lineInput.unitId !== undefined);
  const config = await currentConfig(deps);
  /** The review of adding `line` to the (pending) transaction `tx`. */
  const review: NewLineReview = async (db, tx, line, existing) =>
    mayBeReduced
      ? await reviewLinePrices(db, config, saleDiscountsOf(tx), existing, [...existing, line])
      : NO_PRICE_REVIEW;
  const firstLook = async () => {
    if (!mayBeReduced) return false;
    const tx = await requireTransaction(deps.db, transactionId);
    assertEditable(tx);
    assertLinesChangeable(tx);
    const [line] = await resolveLines(deps.db, [lineInput], (_i, f) => f);
    return (await review(deps.db, tx, line!, await findItems(deps.db, tx.id))).needed;
  };
  return await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    override,
    firstLook,
    (approval) => insertLine(deps, actor, transactionId, lineInput, review, approval),
  );
}

async function insertLine(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  lineInput: ItemInput,
  review: NewLineReview,
  approval: (needed: boolean) => Approver | null,
): Promise<{ item: ItemJson; transaction: TransactionJson }> {
  return await withTransaction(deps.db, async (trx) => {
    const tx = await requireLockedTransaction(trx, transactionId);
    assertEditable(tx);
    assertLinesChangeable(tx);
    const now = deps.clock.now();
    const [line] = await resolveLines(trx, [lineInput], (_i, f) => f);
    const existing = await findItems(trx, tx.id);
    assertUnitNotOnSale(line!.unitId, existing.map((i) => i.unitId));
    const prices = await review(trx, tx, line!, existing);
    const approver = approval(prices.needed);
    const context = await pricingContext(trx, tx.accountId, now);
    const lastAt = existing.reduce((max, i) => Math.max(max, Date.parse(i.createdAt)), 0);
    const at = new Date(Math.max(now.getTime(), lastAt + 1));
    const discount = orderDiscountOf(tx);
    const [inserted] = await insertItems(
      trx,
      newItemRows(
        deps,
        tx.id,
        [line!],
        totalsOf([...existing, line!], discount, context),
        existing.length,
        at,
      ),
    );
    const granted = grantedShare(prices, approver);
    const saved = await saveTotals(
      trx,
      tx,
      [...existing, inserted!],
      discount,
      context,
      now,
      grantedColumns(granted),
    );
    await auditPriceReductions(deps, trx, actor, tx.id, saved.items, prices, approver);
    await auditGranted(deps, trx, actor, saved.tx, granted, "item_added", inserted!.id);
    const item = saved.items.find((i) => i.id === inserted!.id)!;
    return {
      item: itemJson(item),
      transaction: transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id)),
    };
  });
}

/** The item as `input` changes it (the transaction must be editable). */
function changedItem(
  tx: TransactionRecord,
  items: readonly ItemRecord[],
  itemId: string,
  input: UpdateItemInput,
): ItemRecord {
  const item = items.find((i) => i.id === itemId);
  if (!item) throw itemNotOnTransaction(itemId, tx.id);
  assertEditable(tx);
  assertLinesChangeable(tx);
  if (item.unitId && input.quantity !== undefined) {
    assertUnitLineQuantity(input.quantity, "quantity");
  }
  return {
    ...item,
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.quantity !== undefined ? { quantity: input.quantity } : {}),
    ...(input.unitPrice !== undefined
      ? { unitPrice: formatMoney(parseMoney(input.unitPrice)) }
      : {}),
    ...(input.taxCategory !== undefined ? { taxCategory: input.taxCategory } : {}),
  };
}

/**
 * Changes a line. An edit of its quantity or price is reviewed (API §8): one that prices a
 * product line further below its product's price (a lower price, or more of a reduced line)
 * like a new reduced line, and any such edit for the discount share it leaves (a lower
 * quantity raises an amount discount's share).
 */
export async function changeItem(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  itemId: string,
  input: UpdateItemInput,
): Promise<TransactionJson> {
  const { override, ...changes } = input;
  const mayBeReduced = changes.unitPrice !== undefined || changes.quantity !== undefined;
  const config = await currentConfig(deps);
  /** The review of the edit, and the lines after it. */
  const review = async (db: Db, tx: TransactionRecord, items: ItemRecord[]) => {
    const changed = changedItem(tx, items, itemId, changes);
    const after = items.map((i) => (i.id === itemId ? changed : i));
    const prices = mayBeReduced
      ? await reviewLinePrices(db, config, saleDiscountsOf(tx), items, after)
      : NO_PRICE_REVIEW;
    return { changed, after, prices };
  };
  const firstLook = async () => {
    if (!mayBeReduced) return false;
    const tx = await requireTransaction(deps.db, transactionId);
    return (await review(deps.db, tx, await findItems(deps.db, tx.id))).prices.needed;
  };
  return await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    override,
    firstLook,
    (approval) =>
      withTransaction(deps.db, async (trx) => {
        const tx = await requireLockedTransaction(trx, transactionId);
        const { changed, after, prices } = await review(trx, tx, await findItems(trx, tx.id));
        const approver = approval(prices.needed);
        const granted = grantedShare(prices, approver);
        await updateItemRow(trx, itemId, changed);
        const now = deps.clock.now();
        const context = await pricingContext(trx, tx.accountId, now);
        const saved = await saveTotals(
          trx,
          tx,
          after,
          orderDiscountOf(tx),
          context,
          now,
          grantedColumns(granted),
        );
        await auditPriceReductions(deps, trx, actor, tx.id, saved.items, prices, approver);
        await auditGranted(deps, trx, actor, saved.tx, granted, "item_changed", itemId);
        return transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id));
      }),
  );
}

/**
 * Removes a line. The discount share it leaves is reviewed (API §8): removing lines raises an
 * amount discount's share, and beyond the threshold and the share approved the removal needs
 * `override`.
 */
export async function removeItem(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  itemId: string,
  input: { override?: { code: string } } | undefined,
): Promise<void> {
  const config = await currentConfig(deps);
  /** The review of the removal, and the lines left. */
  const review = async (db: Db, tx: TransactionRecord, items: ItemRecord[]) => {
    const item = items.find((i) => i.id === itemId);
    if (!item) throw itemNotOnTransaction(itemId, tx.id);
    assertEditable(tx);
    assertLinesChangeable(tx);
    const left = items.filter((i) => i.id !== itemId);
    const prices = await reviewLinePrices(db, config, saleDiscountsOf(tx), left, left, [item]);
    return { left, prices };
  };
  await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    input?.override,
    async () => {
      const tx = await requireTransaction(deps.db, transactionId);
      return (await review(deps.db, tx, await findItems(deps.db, tx.id))).prices.needed;
    },
    (approval) =>
      withTransaction(deps.db, async (trx) => {
        const tx = await requireLockedTransaction(trx, transactionId);
        const { left, prices } = await review(trx, tx, await findItems(trx, tx.id));
        const granted = grantedShare(prices, approval(prices.needed));
        await deleteItemRow(trx, itemId);
        const now = deps.clock.now();
        const context = await pricingContext(trx, tx.accountId, now);
        const saved = await saveTotals(
          trx,
          tx,
          left,
          orderDiscountOf(tx),
          context,
          now,
          grantedColumns(granted),
        );
        await auditGranted(deps, trx, actor, saved.tx, granted, "item_removed", itemId);
      }),
  );
}
