/**
 * SQL of transactions (the sale, repair payment or refund itself; lines and payments have
 * their own repositories). Lock: a transaction row is locked FOR UPDATE by whatever changes
 * it ({@link lockTransaction}, {@link lockTransactionRow}, the completion statement), so
 * changes of one transaction run one after the other.
 */
import { type ExpressionBuilder, type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { isAnyOf } from "../db/any_of.ts";
import { estimatedRows, paginate } from "../db/pagination.ts";
import { hasRow, isoString, isoStringOrNull } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type { TransactionStatus, TransactionTable, TransactionType } from "./pos_tables.ts";

export interface TransactionRecord {
  id: string;
  number: number;
  type: TransactionType;
  status: TransactionStatus;
  locationId: string;
  registerId: string | null;
  accountId: string | null;
  drawerSessionId: string | null;
  repairTicketId: string | null;
  rentalId: string | null;
  originalTransactionId: string | null;
  discountKind: "percent" | "amount" | null;
  discountValue: string | null;
  /** The discount share a manager approved for the sale, and who; null when none did. */
  discountApproval: DiscountApprovalColumns | null;
  subtotal: string;
  discountTotal: string;
  taxTotal: string;
  total: string;
  amountPaid: string;
  taxExempt: boolean;
  /** The certificate of the exemption that made it tax-exempt (none before it was kept). */
  taxExemptCertificate: string | null;
  reason: string | null;
  voidReason: string | null;
  createdBy: string | null;
  approvedBy: string | null;
  completedBy: string | null;
  voidedBy: string | null;
  voidApprovedBy: string | null;
  completedAt: string | null;
  voidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type TransactionRow = Selectable<TransactionTable>;

/** The approval columns of a row (left out of a list's rows: null). */
function discountApprovalOf(row: TransactionRow): DiscountApprovalColumns | null {
  const part = row.discount_approved_part ?? null;
  const whole = row.discount_approved_whole ?? null;
  const approvedBy = row.discount_approved_by ?? null;
  if (part === null || whole === null || approvedBy === null) return null;
  return { part: String(part), whole: String(whole), approvedBy };
}

export function toTransaction(row: TransactionRow): TransactionRecord {
  return {
    id: row.id,
    number: Number(row.number),
    type: row.type,
    status: row.status,
    locationId: row.location_id,
    registerId: row.register_id,
    accountId: row.account_id,
    drawerSessionId: row.drawer_session_id,
    repairTicketId: row.repair_ticket_id,
    rentalId: row.rental_id ?? null,
    originalTransactionId: row.original_transaction_id,
    discountKind: row.discount_kind,
    discountValue: row.discount_value,
    discountApproval: discountApprovalOf(row),
    subtotal: row.subtotal,
    discountTotal: row.discount_total,
    taxTotal: row.tax_total,
    total: row.total,
    amountPaid: row.amount_paid,
    taxExempt: row.tax_exempt,
    taxExemptCertificate: row.tax_exempt_certificate ?? null,
    reason: row.reason,
    voidReason: row.void_reason,
    createdBy: row.created_by,
    approvedBy: row.approved_by,
    completedBy: row.completed_by,
    voidedBy: row.voided_by,
    voidApprovedBy: row.void_approved_by,
    completedAt: isoStringOrNull(row.completed_at),
    voidedAt: isoStringOrNull(row.voided_at),
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** The approved discount share as stored: integer texts, `part / whole`, and the approver. */
export interface DiscountApprovalColumns {
  part: string;
  whole: string;
  approvedBy: string;
}

/** The columns of {@link DiscountApprovalColumns} (all null for none). */
function discountApprovalValues(approval: DiscountApprovalColumns | null) {
  return {
    discount_approved_part: approval?.part ?? null,
    discount_approved_whole: approval?.whole ?? null,
    discount_approved_by: approval?.approvedBy ?? null,
  };
}

export interface TotalsColumns {
  subtotal: string;
  discountTotal: string;
  taxTotal: string;
  total: string;
}

export interface NewTransaction {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  locationId: string;
  registerId: string | null;
  accountId: string | null;
  drawerSessionId?: string | null;
  repairTicketId: string | null;
  rentalId?: string | null;
  originalTransactionId?: string | null;
  taxExempt: boolean;
  /** Kept only with `taxExempt`. */
  taxExemptCertificate?: string | null;
  reason?: string | null;
  createdBy: string;
  approvedBy?: string | null;
  completedBy?: string | null;
  completedAt?: Date | null;
  totals?: TotalsColumns;
  amountPaid?: string;
  discountApproval?: DiscountApprovalColumns | null;
  now: Date;
}

export async function insertTransaction(db: Db, v: NewTransaction): Promise<TransactionRecord> {
  const row = await db.insertInto("transactions").values({
    id: v.id,
    type: v.type,
    status: v.status,
    location_id: v.locationId,
    register_id: v.registerId,
    account_id: v.accountId,
    drawer_session_id: v.drawerSessionId ?? null,
    repair_ticket_id: v.repairTicketId,
    rental_id: v.rentalId ?? null,
    original_transaction_id: v.originalTransactionId ?? null,
    tax_exempt: v.taxExempt,
    tax_exempt_certificate: v.taxExempt ? v.taxExemptCertificate ?? null : null,
    reason: v.reason ?? null,
    created_by: v.createdBy,
    approved_by: v.approvedBy ?? null,
    completed_by: v.completedBy ?? null,
    completed_at: v.completedAt ?? null,
    ...(v.totals
      ? {
        subtotal: v.totals.subtotal,
        discount_total: v.totals.discountTotal,
        tax_total: v.totals.taxTotal,
        total: v.totals.total,
      }
      : {}),
    ...(v.amountPaid !== undefined ? { amount_paid: v.amountPaid } : {}),
    ...(v.discountApproval ? discountApprovalValues(v.discountApproval) : {}),
    created_at: v.now,
    updated_at: v.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toTransaction(row);
}

export async function findTransaction(db: Db, id: string): Promise<TransactionRecord | undefined> {
  const row = await db.selectFrom("transactions").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toTransaction(row);
}

/** The transaction, its row locked FOR UPDATE until the caller commits. */
export async function lockTransaction(
  trx: Transaction<Database>,
  id: string,
): Promise<TransactionRecord | undefined> {
  const row = await trx.selectFrom("transactions").selectAll().where("id", "=", id).forUpdate()
    .executeTakeFirst();
  return row && toTransaction(row);
}

/**
 * Locks the transaction row FOR UPDATE and tells whether it exists. Its own statement on
 * purpose: a statement that waits for a row lock keeps the snapshot it started with, so reading
 * the lines and payments in the same statement could miss a change committed while waiting.
 */
export function lockTransactionRow(trx: Transaction<Database>, id: string): Promise<boolean> {
  return hasRow(trx.selectFrom("transactions").select("id").where("id", "=", id).forUpdate());
}

export interface TransactionChanges {
  status?: TransactionStatus;
  registerId?: string | null;
  drawerSessionId?: string | null;
  discountKind?: "percent" | "amount" | null;
  discountValue?: string | null;
  discountApproval?: DiscountApprovalColumns | null;
  totals?: TotalsColumns;
  amountPaid?: string;
  /** With `taxExemptCertificate` (kept only while tax-exempt). */
  taxExempt?: boolean;
  taxExemptCertificate?: string | null;
  voidReason?: string;
  completedBy?: string;
  voidedBy?: string;
  voidApprovedBy?: string | null;
  completedAt?: Date;
  voidedAt?: Date;
}

export async function updateTransaction(
  db: Db,
  id: string,
  c: TransactionChanges,
  now: Date,
): Promise<TransactionRecord> {
  const row = await db.updateTable("transactions").set({
    ...(c.status !== undefined ? { status: c.status } : {}),
    ...(c.registerId !== undefined ? { register_id: c.registerId } : {}),
    ...(c.drawerSessionId !== undefined ? { drawer_session_id: c.drawerSessionId } : {}),
    ...(c.discountKind !== undefined ? { discount_kind: c.discountKind } : {}),
    ...(c.discountValue !== undefined ? { discount_value: c.discountValue } : {}),
    ...(c.discountApproval !== undefined ? discountApprovalValues(c.discountApproval) : {}),
    ...(c.totals
      ? {
        subtotal: c.totals.subtotal,
        discount_total: c.totals.discountTotal,
        tax_total: c.totals.taxTotal,
        total: c.totals.total,
      }
      : {}),
    ...(c.amountPaid !== undefined ? { amount_paid: c.amountPaid } : {}),
    ...(c.taxExempt !== undefined
      ? {
        tax_exempt: c.taxExempt,
        tax_exempt_certificate: c.taxExempt ? c.taxExemptCertificate ?? null : null,
      }
      : {}),
    ...(c.voidReason !== undefined ? { void_reason: c.voidReason } : {}),
    ...(c.completedBy !== undefined ? { completed_by: c.completedBy } : {}),
    ...(c.voidedBy !== undefined ? { voided_by: c.voidedBy } : {}),
    ...(c.voidApprovedBy !== undefined ? { void_approved_by: c.voidApprovedBy } : {}),
    ...(c.completedAt !== undefined ? { completed_at: c.completedAt } : {}),
    ...(c.voidedAt !== undefined ? { voided_at: c.voidedAt } : {}),
    updated_at: now,
  }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
  return toTransaction(row);
}

export interface TransactionFilters {
  accountId?: string;
  itemSearch?: string;
  status?: TransactionStatus;
  type?: TransactionType;
  locationId?: string;
  registerId?: string;
  drawerSessionId?: string;
  fromAt?: Date;
  toAt?: Date;
}

/**
 * Whether one of the sale's lines has a description containing `text` (app/db/contains_text.ts).
 * `probedPerSale`: the sale's own lines are probed as each sale is reached. Under an OR (q's
 * common-term form) the EXISTS cannot become a join, and PostgreSQL chooses between probing
 * and hashing every matching line first by the rows of the whole scan, not the page's. Hashing
 * is right to count the matches, but a page of a list whose total is an estimate (nothing
 * counted) then still hashed them all: at 100,000 sales, the 31,000 lines of "gibson" for
 * every page (150 ms p50 at 10 clients). An OFFSET in the subquery keeps PostgreSQL from
 * making the hashed form.
 */
function hasMatchingLine(
  eb: ExpressionBuilder<Database, "transactions">,
  text: string,
  probedPerSale = false,
) {
  const lines = eb.selectFrom("transaction_items as ti").select(sql`1`.as("one"))
    .whereRef("ti.transaction_id", "=", "transactions.id")
    .where(containsText("ti.description", text));
  return eb.exists(probedPerSale ? lines.offset(sql.lit(0)) : lines);
}

/**
 * Lines matching a search term above which `q` walks the transactions in their order rather
 * than uniting every match first (see `listTransactions`).
 */
const COMMON_TERM_LINES = 5_000;

/**
 * One query per page. `itemSearch` is an EXISTS over the transaction's items with an ILIKE
 * on `description`, served by the trigram GIN index `transaction_items_description_trgm_idx`.
 * `q` matches the transaction number (exactly, digits with an optional `#`), any line's
 * description (same index) or the account's name (`accounts_name_trgm`), in one of two forms
 * chosen by the planner's estimate of the matching lines:
 *  - a rare term (the usual search for a sale): a union of ids, each branch served by its
 *    index, so a few matches among a million sales are found without reading the others;
 *  - a common term ("strings", a best-selling brand: a fifth of all sales): the union would
 *    hash hundreds of thousands of ids (over a second at a million sales), so the page walks
 *    the transactions in their sort order, checking each one's lines (EXISTS) and account,
 *    and stops after the page (and the capped count after 10,001 matches).
 */
export async function listTransactions(db: Db, params: ListParams & TransactionFilters) {
  let query = db.selectFrom("transactions").selectAll("transactions");
  if (params.accountId) query = query.where("account_id", "=", params.accountId);
  if (params.status) query = query.where("status", "=", params.status);
  if (params.type) query = query.where("type", "=", params.type);
  if (params.locationId) query = query.where("location_id", "=", params.locationId);
  if (params.registerId) query = query.where("register_id", "=", params.registerId);
  if (params.drawerSessionId) {
    query = query.where("drawer_session_id", "=", params.drawerSessionId);
  }
  if (params.fromAt) query = query.where("transactions.created_at", ">=", params.fromAt);
  if (params.toAt) query = query.where("transactions.created_at", "<", params.toAt);
  if (params.itemSearch) {
    const itemSearch = params.itemSearch;
    query = query.where((eb) => hasMatchingLine(eb, itemSearch));
  }
  // The common-term search's pages once its total is an estimate (PageOptions.walk).
  let walk: typeof query | undefined;
  if (params.q) {
    const q = params.q;
    const number = /^#?\d{1,15}$/.test(params.q) ? Number(params.q.replace("#", "")) : undefined;
    const lines = db.selectFrom("transaction_items as qi").select("qi.transaction_id as id");
    const matchingLines = lines.where(containsText("qi.description", q));
    const accounts = db.selectFrom("accounts as qacc").select("qacc.id")
      .where(containsText("qacc.name", q));
    // Estimated on the plain pattern: containsText's exact filter is an expression without
    // statistics, which would shrink the estimate of a common term by its default selectivity.
    const plainMatches = lines.where("qi.description", "ilike", likePattern(q));
    if (await estimatedRows(plainMatches) > COMMON_TERM_LINES) {
      const unfiltered = query;
      const matching = (probedPerSale: boolean) =>
        unfiltered.where((eb) =>
          eb.or([
            hasMatchingLine(eb, q, probedPerSale),
            isAnyOf("transactions.account_id", accounts),
            ...(number === undefined ? [] : [eb("transactions.number", "=", number)]),
          ])
        );
      query = matching(false);
      walk = matching(true);
    } else {
      query = query.where("transactions.id", "in", (eb) => {
        const byAccount = eb.selectFrom("transactions as qa").select("qa.id as id")
          .where("qa.account_id", "in", accounts);
        const matches = matchingLines.union(byAccount);
        return number === undefined ? matches : matches.union(
          eb.selectFrom("transactions as qn").select("qn.id as id").where("qn.number", "=", number),
        );
      });
    }
  }
  return paginate(query, params, {
    sortColumns: {
      createdAt: "transactions.created_at",
      completedAt: "transactions.completed_at",
      total: "transactions.total",
      number: "transactions.number",
    },
    nullableSorts: ["completedAt"],
    tieBreaker: "transactions.id",
    walk,
    map: (row) => toTransaction(row as TransactionRow),
  });
}
