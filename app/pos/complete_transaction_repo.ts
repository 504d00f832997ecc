/**
 * SQL of the sale-completion hot path: two statements after BEGIN (the row lock is
 * `lockTransactionRow` in `transactions_repo.ts`). Lock strengths are those of each row's
 * owner: the transaction FOR UPDATE, the open drawer sessions FOR SHARE (see
 * `drawer_sessions_repo.ts`), the products FOR NO KEY UPDATE in id order (inventory's
 * `stockDeltaCte`).
 */
import { sql, type Transaction } from "kysely";
import type { Database } from "../db/database.ts";
import { type StockDelta, stockDeltaCte } from "../inventory/stock.ts";
import { type DrawerSessionRecord, toDrawerSession } from "./drawer_sessions_repo.ts";
import { type ItemRow, type StockItemRecord, toItem } from "./items_repo.ts";
import { type PaymentRecord, type PaymentRow, toPayment } from "./payments_repo.ts";
import {
  type DiscountApprovalColumns,
  toTransaction,
  type TransactionRecord,
  type TransactionRow,
} from "./transactions_repo.ts";

/** A line being completed: its stock effect, and its product's current price (null: none). */
export type CompletionItemRecord = StockItemRecord & { cataloguePrice: string | null };

/** JSON columns arrive parsed from one driver and as text from the other. */
function parsed(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

/**
 * The completion hot path's read, in one round trip, run after `lockTransactionRow` (so it
 * reads with a snapshot taken once the lock is held): the transaction (FOR UPDATE again, a
 * no-op for the holder), its items (with their product's type and current price, for the
 * discount share) and payments, and the open
 * drawer sessions of `registerId` (when given) or else of the transaction's location, locked
 * FOR SHARE (a concurrent close waits until we commit; a session closed meanwhile is
 * re-checked and left out), in `opened_at, id` order.
 */
export async function lockTransactionForCompletion(
  trx: Transaction<Database>,
  id: string,
  registerId: string | undefined,
): Promise<
  | {
    tx: TransactionRecord;
    items: CompletionItemRecord[];
    payments: PaymentRecord[];
    sessions: DrawerSessionRecord[];
  }
  | undefined
> {
  const sessionFilter = registerId
    ? sql`ds.register_id = ${registerId}::uuid`
    : sql`ds.location_id = t.location_id`;
  const result = await sql<
    TransactionRow & { items_json: unknown; payments_json: unknown; sessions_json: unknown }
  >`
    WITH t AS (SELECT * FROM transactions WHERE id = ${id} FOR UPDATE)
    SELECT t.*,
      COALESCE((
        SELECT json_agg(json_build_object(
          'id', ti.id, 'transaction_id', ti.transaction_id, 'kind', ti.kind,
          'product_id', ti.product_id, 'unit_id', ti.unit_id,
          'original_item_id', ti.original_item_id, 'rental_charge_id', ti.rental_charge_id,
          'description', ti.description,
          'quantity', ti.quantity, 'unit_price', ti.unit_price::text,
          'tax_category', ti.tax_category, 'is_consumable', ti.is_consumable,
          'gross', ti.gross::text, 'discount', ti.discount::text, 'net', ti.net::text,
          'tax', ti.tax::text, 'refunded_quantity', ti.refunded_quantity,
          'refunded_net', ti.refunded_net::text, 'refunded_tax', ti.refunded_tax::text,
          'created_at', ti.created_at, 'product_type', p.type,
          'catalogue_price', CASE WHEN p.deleted_at IS NULL THEN p.price::text END
        ) ORDER BY ti.created_at, ti.id)
        FROM transaction_items ti LEFT JOIN products p ON p.id = ti.product_id
        WHERE ti.transaction_id = t.id), '[]'::json) AS items_json,
      COALESCE((
        SELECT json_agg(json_build_object(
          'id', py.id, 'transaction_id', py.transaction_id, 'method', py.method,
          'amount', py.amount::text, 'tendered', py.tendered::text, 'change', py.change::text,
          'reference', py.reference, 'is_refund', py.is_refund, 'created_by', py.created_by,
          'created_at', py.created_at
        ) ORDER BY py.created_at, py.id)
        FROM payments py WHERE py.transaction_id = t.id), '[]'::json) AS payments_json,
      COALESCE((
        SELECT json_agg(json_build_object(
          'id', s.id, 'register_id', s.register_id, 'location_id', s.location_id,
          'status', s.status, 'opening_balance', s.opening_balance::text,
          'closing_balance', s.closing_balance::text,
          'expected_balance', s.expected_balance::text, 'over_short', s.over_short::text,
          'notes', s.notes, 'opened_by', s.opened_by, 'closed_by', s.closed_by,
          'opened_at', s.opened_at, 'closed_at', s.closed_at, 'z_report', s.z_report
        ) ORDER BY s.opened_at, s.id)
        FROM (
          SELECT ds.* FROM drawer_sessions ds
          WHERE ds.status = 'open' AND ${sessionFilter}
          ORDER BY ds.opened_at, ds.id FOR SHARE
        ) s), '[]'::json) AS sessions_json
    FROM t`.execute(trx);
  const row = result.rows[0];
  if (!row) return undefined;
  const { items_json, payments_json, sessions_json, ...txRow } = row;
  const items = (parsed(items_json) as Array<
    ItemRow & { product_type: string | null; catalogue_price: string | null }
  >).map(({ product_type, catalogue_price, ...item }) => ({
    ...toItem(item),
    productType: product_type,
    cataloguePrice: catalogue_price,
  }));
  const payments = (parsed(payments_json) as PaymentRow[]).map(toPayment);
  const sessions = (parsed(sessions_json) as Parameters<typeof toDrawerSession>[0][])
    .map(toDrawerSession);
  return { tx: toTransaction(txRow as TransactionRow), items, payments, sessions };
}

/**
 * Completes a sale in one statement: inventory's stock update of `deltas` (its
 * `stockDeltaCte`: products locked in id order, `qty_on_hand + delta`) as data-modifying
 * CTEs, then the transaction marked complete (with the discount share approved at
 * completion, when one was), returned.
 */
export async function completeTransactionRow(
  trx: Transaction<Database>,
  id: string,
  values: {
    drawerSessionId: string;
    registerId: string;
    completedBy: string;
    discountApproval: DiscountApprovalColumns | null;
  },
  deltas: readonly StockDelta[],
  now: Date,
): Promise<TransactionRecord> {
  const stock = stockDeltaCte(deltas, now);
  const approval = values.discountApproval;
  const result = await sql<TransactionRow>`
    WITH ${stock ? sql`${stock},` : sql``} done AS (
      UPDATE transactions SET status = 'complete', drawer_session_id = ${values.drawerSessionId},
        register_id = ${values.registerId}, completed_at = ${now},
        completed_by = ${values.completedBy}, updated_at = ${now}${
    approval
      ? sql`, discount_approved_part = ${approval.part}::numeric,
        discount_approved_whole = ${approval.whole}::numeric,
        discount_approved_by = ${approval.approvedBy}::uuid`
      : sql``
  }
      WHERE id = ${id}
      RETURNING *
    )
    SELECT * FROM done`.execute(trx);
  const row = result.rows[0];
  if (!row) throw new Error(`Transaction "${id}" vanished while completing`);
  return toTransaction(row);
}
