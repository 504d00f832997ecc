/**
 * Lines of a pending transaction (API §8): add, change, remove. Each locks the transaction
 * row FOR UPDATE, then recomputes and stores every line's amounts and the totals. Adding or
 * editing a line priced below its product's price goes through the catalogue-price review
 * (price_approval.ts): a first look before the transaction, so an override code is checked
 * outside it, and the binding one on the locked transaction (`withApproval`, overrides.ts).
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
import type { TransactionRecord } from "./transactions_repo.ts";
import { type Approver, withApproval } from "./overrides.ts";
import {
  auditPriceReductions,
  NO_PRICE_REVIEW,
  type PriceReview,
  reviewLinePrices,
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
      ? await reviewLinePrices(db, config, existing, [...existing, line], orderDiscountOf(tx))
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
    const saved = await saveTotals(trx, tx, [...existing, inserted!], discount, context, now);
    await auditPriceReductions(deps, trx, actor, tx.id, saved.items, prices, approver);
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
 * Changes a line. An edit that prices a product line further below its product's price (a
 * lower price, or more of a reduced line) is reviewed like a new reduced line (API §8).
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
    const prices = mayBeReduced && changed.productId
      ? await reviewLinePrices(db, config, items, after, orderDiscountOf(tx))
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
        await updateItemRow(trx, itemId, changed);
        const now = deps.clock.now();
        const context = await pricingContext(trx, tx.accountId, now);
        const saved = await saveTotals(trx, tx, after, orderDiscountOf(tx), context, now);
        await auditPriceReductions(deps, trx, actor, tx.id, saved.items, prices, approver);
        return transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id));
      }),
  );
}

export async function removeItem(
  deps: AppDeps,
  transactionId: string,
  itemId: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const tx = await requireLockedTransaction(trx, transactionId);
    const items = await findItems(trx, tx.id);
    if (!items.some((i) => i.id === itemId)) throw itemNotOnTransaction(itemId, tx.id);
    assertEditable(tx);
    assertLinesChangeable(tx);
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
