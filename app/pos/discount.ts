/**
 * The order discount of a pending transaction (API §8). Above the configured threshold it
 * needs a manager override when `managerOverride.discount` is on; lines priced below their
 * product's price count toward that threshold with it (price_approval.ts). Setting a discount
 * is a new decision: it is judged whatever share was approved before. An approval is stored
 * as the sale's approved discount share (changes of lines and completion judge the share
 * against it) and audited as `pos.discount_override` in the same transaction; a new discount
 * set without one drops an earlier approval, removing the discount (value 0) keeps it.
 */
import { assertEditable } from "../../domain/pos/transaction_status.ts";
import { parseDiscount } from "../../domain/pos/transaction_totals.ts";
import type { Actor } from "../actor.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import { findItems } from "./items_repo.ts";
import { withApproval } from "./overrides.ts";
import { findPayments } from "./payments_repo.ts";
import { approvalColumns, auditShareApproval, reviewOrderDiscount } from "./price_approval.ts";
import { pricingContext, saveTotals } from "./pricing.ts";
import { type TransactionJson, transactionJson } from "./transaction_json.ts";
import { requireLockedTransaction, requireTransaction } from "./transactions.ts";

/** Sets (or, with value 0, removes) the order discount. */
export async function setDiscount(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { kind: "percent" | "amount"; value: string; override?: { code: string } },
): Promise<TransactionJson> {
  const discount = parseDiscount({ kind: input.kind, value: input.value });
  const before = await requireTransaction(deps.db, transactionId);
  assertEditable(before);
  const config = await currentConfig(deps);
  return await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    input.override,
    async () =>
      (await reviewOrderDiscount(deps.db, config, await findItems(deps.db, before.id), discount))
        .needed,
    (approval) =>
      withTransaction(deps.db, async (trx) => {
        const tx = await requireLockedTransaction(trx, transactionId);
        assertEditable(tx);
        const items = await findItems(trx, tx.id);
        const review = await reviewOrderDiscount(trx, config, items, discount);
        const approver = approval(review.needed);
        const now = deps.clock.now();
        const context = await pricingContext(trx, tx.accountId, now);
        const cleared = discount.value === 0;
        const saved = await saveTotals(trx, tx, items, cleared ? null : discount, context, now, {
          discountKind: cleared ? null : discount.kind,
          discountValue: cleared ? null : input.value,
          ...(approver
            ? { discountApproval: approvalColumns(review.share, approver) }
            : cleared
            ? {}
            : { discountApproval: null }),
        });
        if (review.needed && approver) {
          await auditShareApproval(deps, trx, actor, saved.tx, {
            change: "discount",
            share: review.share,
            approver,
          }, { kind: discount.kind, value: input.value });
        }
        return transactionJson(saved.tx, saved.items, await findPayments(trx, tx.id));
      }),
  );
}
