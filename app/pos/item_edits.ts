/**
 * Lines of a pending transaction (API §8): add, change, remove. Each locks the transaction
 * row FOR UPDATE, then recomputes and stores every line's amounts and the totals.
 */
import { NotFoundError } from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { assertUnitLineQuantity, assertUnitNotOnSale } from "../../domain/pos/sale_rules.ts";
import { assertEditable } from "../../domain/pos/transaction_status.ts";
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
import type { ItemInput, UpdateItemInput } from "./pos_schemas.ts";
import { orderDiscountOf, pricingContext, saveTotals, totalsOf } from "./pricing.ts";
import { newItemRows, resolveLines } from "./sale_lines.ts";
import {
  type ItemJson,
  itemJson,
  type TransactionJson,
  transactionJson,
} from "./transaction_json.ts";
import { requireLockedTransaction } from "./transactions.ts";

function itemNotOnTransaction(itemId: string, transactionId: string): NotFoundError {
  return new NotFoundError(
    "not_found",
    `Item "${itemId}" is not on transaction "${transactionId}"`,
  );
}

export async function addItem(
  deps: AppDeps,
  transactionId: string,
  input: ItemInput,
): Promise<{ item: ItemJson; transaction: TransactionJson }> {
  return await withTransaction(deps.db, async (trx) => {
    const tx = await requireLockedTransaction(trx, transactionId);
    assertEditable(tx);
    const now = deps.clock.now();
    const [line] = await resolveLines(trx, [input], (_i, f) => f);
    const existing = await findItems(trx, tx.id);
    assertUnitNotOnSale(line!.unitId, existing.map((i) => i.unitId));
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
    const tx = await requireLockedTransaction(trx, transactionId);
    const items = await findItems(trx, tx.id);
    const item = items.find((i) => i.id === itemId);
    if (!item) throw itemNotOnTransaction(itemId, tx.id);
    assertEditable(tx);
    if (item.unitId && input.quantity !== undefined) {
      assertUnitLineQuantity(input.quantity, "quantity");
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
    const tx = await requireLockedTransaction(trx, transactionId);
    const items = await findItems(trx, tx.id);
    if (!items.some((i) => i.id === itemId)) throw itemNotOnTransaction(itemId, tx.id);
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
