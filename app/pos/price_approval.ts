/**
 * The size of a pending sale's discounts (API §8; the rules are
 * `domain/pos/price_reductions.ts`): lines priced below the catalogue, and the order discount
 * with them as the sale's *discount share*. Every change of lines — a new sale, an added,
 * edited or removed line — is reviewed against the products' current prices. A change needs
 * the manager override (the `discount` action) when it prices a line further below its price
 * than before and that line alone passes `discountApprovalThresholdPercent`, or when it
 * raises the share beyond the threshold and beyond the share a manager approved for the sale
 * (issue 42: $100 off a $1,000 sale is 10 %, but 100 % once the $900 line is removed).
 * Each line priced further below is audited as `pos.price_override` with the cashier and the
 * approver (null when none was needed); an approved share is stored on the transaction
 * (`discount_approved_*`) and audited as `pos.discount_override`, so it is not asked again
 * until the share grows beyond it. Completion judges the share once more
 * (complete_transaction.ts).
 *
 * As for order discounts, the review runs twice (`withApproval`, overrides.ts): a first look
 * before the use case's transaction (so a manager's code is checked, with bcrypt, outside
 * it), and the binding one on the locked transaction.
 */
import { formatMoney, formatPercent, parseMoney, parsePercent } from "../../domain/money.ts";
import {
  type CataloguedLine,
  type DiscountShare,
  discountShare,
  lineChangeNeedsApproval,
  orderDiscountNeedsApproval,
  priceReductionCents,
  raisedReductions,
  shareBasisPointsRoundedUp,
  shareNeedsApproval,
} from "../../domain/pos/price_reductions.ts";
import type { OrderDiscount } from "../../domain/pos/transaction_totals.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findProductsForSale } from "../inventory/stock_repo.ts";
import type { RuntimeConfig } from "../platform/platform_schemas.ts";
import { approvalDetails, type Approver } from "./overrides.ts";
import { orderDiscountOf } from "./pricing.ts";
import type { DiscountApprovalColumns, TransactionRecord } from "./transactions_repo.ts";

/** What the review needs of a line: an item row or a new line. */
export interface PricedProductLine {
  productId: string | null;
  quantity: number;
  unitPrice: string;
  isConsumable: boolean;
}

/** What the review needs of the sale: its order discount and the share approved for it. */
export interface SaleDiscounts {
  orderDiscount: OrderDiscount | null;
  approved: DiscountShare | null;
}

/** A new sale: no order discount yet, nothing approved. */
export const NEW_SALE: SaleDiscounts = { orderDiscount: null, approved: null };

/** The order discount and the approved share of a stored transaction. */
export function saleDiscountsOf(tx: TransactionRecord): SaleDiscounts {
  const approval = tx.discountApproval;
  return {
    orderDiscount: orderDiscountOf(tx),
    approved: approval ? { part: BigInt(approval.part), whole: BigInt(approval.whole) } : null,
  };
}

export interface PriceReview {
  /** The lines after the change, with their catalogue prices. */
  lines: CataloguedLine[];
  /** Indexes of the lines the change prices further below their catalogue price. */
  raised: number[];
  /** The config asks for approvals of discounts and the change needs one. */
  needed: boolean;
  /**
   * The discount share after the change when an approval of the change also approves it
   * (beyond the threshold and the share approved so far); else null.
   */
  shareToApprove: DiscountShare | null;
}

/** Nothing reduced, nothing to approve. */
export const NO_PRICE_REVIEW: PriceReview = {
  lines: [],
  raised: [],
  needed: false,
  shareToApprove: null,
};

function thresholdOf(config: RuntimeConfig) {
  return parsePercent(config.discountApprovalThresholdPercent);
}

/**
 * The share `share` if the config asks for approvals of discounts and it is beyond the
 * threshold and beyond `approved`; else null (nothing for a manager to approve).
 */
export function shareToApprove(
  config: RuntimeConfig,
  share: DiscountShare,
  approved: DiscountShare | null,
): DiscountShare | null {
  if (!config.managerOverride.discount) return null;
  return shareNeedsApproval(share, thresholdOf(config), approved) ? share : null;
}

/** `lines` with the current prices of their products (one query for all of them). */
export async function cataloguedLines(
  db: Db,
  ...lineSets: ReadonlyArray<readonly PricedProductLine[]>
): Promise<CataloguedLine[][]> {
  const ids = [...new Set(lineSets.flat().flatMap((l) => (l.productId ? [l.productId] : [])))];
  const prices = new Map(
    (await findProductsForSale(db, ids)).map((p) => [p.id, parseMoney(p.price)]),
  );
  return lineSets.map((lines) =>
    lines.map((line) =>
      cataloguedLine(line, line.productId ? prices.get(line.productId) ?? null : null)
    )
  );
}

/** `line` with its product's price (`cataloguePriceCents`; null for none). */
export function cataloguedLine(
  line: Omit<PricedProductLine, "productId">,
  cataloguePriceCents: number | null,
): CataloguedLine {
  return {
    quantity: line.quantity,
    unitPriceCents: parseMoney(line.unitPrice),
    cataloguePriceCents,
    isConsumable: line.isConsumable,
  };
}

/**
 * Reviews a change of a sale's lines from `before` to `after` (the same lines at the same
 * indexes; new lines at the end); lines the change removed are `removed`.
 */
export async function reviewLinePrices(
  db: Db,
  config: RuntimeConfig,
  sale: SaleDiscounts,
  before: readonly PricedProductLine[],
  after: readonly PricedProductLine[],
  removed: readonly PricedProductLine[] = [],
): Promise<PriceReview> {
  const [earlier, lines, gone] = await cataloguedLines(db, before, after, removed);
  const raised = raisedReductions(earlier!, lines!);
  const needed = config.managerOverride.discount && lineChangeNeedsApproval({
    before: [...earlier!, ...gone!],
    after: lines!,
    raised,
    orderDiscount: sale.orderDiscount,
    approved: sale.approved,
  }, thresholdOf(config));
  const share = discountShare(lines!, sale.orderDiscount);
  return {
    lines: lines!,
    raised,
    needed,
    shareToApprove: shareToApprove(config, share, sale.approved),
  };
}

/**
 * Reviews a sale's discount share as it stands (at completion): `lines` with their catalogue
 * prices. It needs an approval beyond the threshold and beyond the share approved.
 */
export function reviewShare(
  config: RuntimeConfig,
  sale: SaleDiscounts,
  lines: readonly CataloguedLine[],
): PriceReview {
  const share = shareToApprove(config, discountShare(lines, sale.orderDiscount), sale.approved);
  return { lines: [...lines], raised: [], needed: share !== null, shareToApprove: share };
}

/**
 * Reviews setting `discount` on a sale with `lines`: whether it needs an approval (the
 * lines' reductions counted; a new discount is a new decision, whatever was approved
 * before), and the discount share it makes.
 */
export async function reviewOrderDiscount(
  db: Db,
  config: RuntimeConfig,
  lines: readonly PricedProductLine[],
  discount: OrderDiscount,
): Promise<{ needed: boolean; share: DiscountShare }> {
  const [catalogued] = await cataloguedLines(db, lines);
  return {
    needed: config.managerOverride.discount &&
      orderDiscountNeedsApproval(catalogued!, discount, thresholdOf(config)),
    share: discountShare(catalogued!, discount),
  };
}

/** The columns that record `share` as approved by `approver`. */
export function approvalColumns(
  share: DiscountShare,
  approver: Approver,
): DiscountApprovalColumns {
  return {
    part: share.part.toString(),
    whole: share.whole.toString(),
    approvedBy: approver.userId,
  };
}

/** A share an approver approved with a change (see {@link grantedShare}). */
export interface GrantedShare {
  share: DiscountShare;
  approver: Approver;
}

/**
 * The share an approval of a reviewed change grants: the share after it, when the change was
 * approved and that share is beyond the threshold and the share approved before; else null.
 */
export function grantedShare(review: PriceReview, approver: Approver | null): GrantedShare | null {
  return approver && review.shareToApprove ? { share: review.shareToApprove, approver } : null;
}

/** What changed the approved share, in its `pos.discount_override` audit entry. */
export type ShareChange =
  | "created"
  | "discount"
  | "item_added"
  | "item_changed"
  | "item_removed"
  | "completed";

/**
 * The `pos.discount_override` audit entry of an approved discount share: what changed it,
 * the share (a percentage rounded up to hundredths), the totals after the change, the
 * cashier and the approver.
 */
export async function auditShareApproval(
  deps: AppDeps,
  trx: Db,
  actor: Actor,
  tx: Pick<TransactionRecord, "id" | "discountTotal" | "subtotal">,
  approval: { change: ShareChange; share: DiscountShare; approver: Approver | null },
  extra: Record<string, unknown> = {},
): Promise<void> {
  await audit(deps, trx, actor, {
    action: "pos.discount_override",
    entityType: "transaction",
    entityId: tx.id,
    details: {
      change: approval.change,
      ...extra,
      share: formatPercent(shareBasisPointsRoundedUp(approval.share)),
      discountTotal: tx.discountTotal,
      subtotal: tx.subtotal,
      ...approvalDetails(actor, approval.approver),
    },
  });
}

/**
 * One `pos.price_override` audit entry per line the change priced further below its
 * catalogue price; `items` are the stored lines at the review's indexes.
 */
export async function auditPriceReductions(
  deps: AppDeps,
  trx: Db,
  actor: Actor,
  transactionId: string,
  items: ReadonlyArray<{ id: string; productId: string | null }>,
  review: PriceReview,
  approver: Approver | null,
): Promise<void> {
  for (const index of review.raised) {
    const line = review.lines[index]!;
    const item = items[index]!;
    await audit(deps, trx, actor, {
      action: "pos.price_override",
      entityType: "transaction",
      entityId: transactionId,
      details: {
        itemId: item.id,
        productId: item.productId,
        quantity: line.quantity,
        unitPrice: formatMoney(line.unitPriceCents),
        cataloguePrice: formatMoney(line.cataloguePriceCents ?? 0),
        discount: formatMoney(priceReductionCents(line)),
        ...approvalDetails(actor, approver),
      },
    });
  }
}
