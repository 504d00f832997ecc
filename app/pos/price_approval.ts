/**
 * Lines priced below the catalogue on a pending sale (API §8; the rule is
 * `domain/pos/price_reductions.ts`): every change of lines — a new sale, an added line, an
 * edited line — is reviewed against the products' current prices. A change that prices a line
 * further below its price than before needs the manager override (the `discount` action)
 * when that line alone, or all reductions with the order discount, pass
 * `discountApprovalThresholdPercent`; each such line is audited as `pos.price_override` with
 * the cashier and the approver (null when none was needed), in the transaction that writes it.
 *
 * As for order discounts, the review runs twice (`withApproval`, overrides.ts): a first look
 * before the use case's transaction (so a manager's code is checked, with bcrypt, outside
 * it), and the binding one on the locked transaction.
 */
import { formatMoney, parseMoney, parsePercent } from "../../domain/money.ts";
import {
  type CataloguedLine,
  orderDiscountNeedsApproval,
  priceReductionCents,
  raisedReductions,
  reductionsNeedApproval,
} from "../../domain/pos/price_reductions.ts";
import type { OrderDiscount } from "../../domain/pos/transaction_totals.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findProductsForSale } from "../inventory/stock_repo.ts";
import type { RuntimeConfig } from "../platform/platform_schemas.ts";
import { approvalDetails, type Approver } from "./overrides.ts";

/** What the review needs of a line: an item row or a new line. */
export interface PricedProductLine {
  productId: string | null;
  quantity: number;
  unitPrice: string;
  isConsumable: boolean;
}

export interface PriceReview {
  /** The lines after the change, with their catalogue prices. */
  lines: CataloguedLine[];
  /** Indexes of the lines the change prices further below their catalogue price. */
  raised: number[];
  /** The config asks for approvals of discounts and the change passes the threshold. */
  needed: boolean;
}

/** Nothing reduced, nothing to approve. */
export const NO_PRICE_REVIEW: PriceReview = { lines: [], raised: [], needed: false };

function thresholdOf(config: RuntimeConfig) {
  return parsePercent(config.discountApprovalThresholdPercent);
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
    lines.map((line) => ({
      quantity: line.quantity,
      unitPriceCents: parseMoney(line.unitPrice),
      cataloguePriceCents: line.productId ? prices.get(line.productId) ?? null : null,
      isConsumable: line.isConsumable,
    }))
  );
}

/**
 * Reviews a change of a sale's lines from `before` to `after` (the same lines at the same
 * indexes; new lines at the end).
 */
export async function reviewLinePrices(
  db: Db,
  config: RuntimeConfig,
  before: readonly PricedProductLine[],
  after: readonly PricedProductLine[],
  orderDiscount: OrderDiscount | null,
): Promise<PriceReview> {
  const [earlier, lines] = await cataloguedLines(db, before, after);
  const raised = raisedReductions(earlier!, lines!);
  const needed = config.managerOverride.discount &&
    reductionsNeedApproval(lines!, raised, orderDiscount, thresholdOf(config));
  return { lines: lines!, raised, needed };
}

/** Whether setting `discount` on a sale with `lines` needs an approval (reductions counted). */
export async function orderDiscountNeedsApprovalOn(
  db: Db,
  config: RuntimeConfig,
  lines: readonly PricedProductLine[],
  discount: OrderDiscount,
): Promise<boolean> {
  if (!config.managerOverride.discount) return false;
  const [catalogued] = await cataloguedLines(db, lines);
  return orderDiscountNeedsApproval(catalogued!, discount, thresholdOf(config));
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
