/** All SQL of the point of sale: registers, drawer sessions, adjustments, transactions. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { hasRow } from "../db/rows.ts";
import { likePattern, type ListParams } from "../schemas.ts";
import type {
  DrawerAdjustmentTable,
  DrawerSessionTable,
  PaymentTable,
  RegisterTable,
  TransactionItemTable,
  TransactionStatus,
  TransactionTable,
  TransactionType,
} from "./pos_tables.ts";

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}

/** JSON text travels as `text` and is cast, so both drivers store an object (not a string). */
function jsonb(value: unknown) {
  return sql`${JSON.stringify(value)}::text::jsonb`;
}

// ================================================================ registers

export interface RegisterRecord {
  id: string;
  name: string;
  locationId: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

function toRegister(row: Selectable<RegisterTable>): RegisterRecord {
  return {
    id: row.id,
    name: row.name,
    locationId: row.location_id,
    isActive: row.is_active,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function listRegisters(
  db: Db,
  params: ListParams & { locationId?: string; isActive?: boolean },
) {
  let query = db.selectFrom("registers").selectAll();
  if (params.q) query = query.where("name", "ilike", likePattern(params.q));
  if (params.locationId) query = query.where("location_id", "=", params.locationId);
  if (params.isActive !== undefined) query = query.where("is_active", "=", params.isActive);
  return paginate(query, params, {
    sortColumns: { name: "name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toRegister,
  });
}

export async function findRegister(db: Db, id: string): Promise<RegisterRecord | undefined> {
  const row = await db.selectFrom("registers").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toRegister(row);
}

export async function insertRegister(
  db: Db,
  values: { id: string; name: string; locationId: string; isActive: boolean; now: Date },
): Promise<RegisterRecord> {
  const row = await db.insertInto("registers").values({
    id: values.id,
    name: values.name,
    location_id: values.locationId,
    is_active: values.isActive,
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toRegister(row);
}

export async function updateRegister(
  db: Db,
  id: string,
  changes: { name?: string; locationId?: string; isActive?: boolean },
  now: Date,
): Promise<RegisterRecord | undefined> {
  const row = await db.updateTable("registers").set({
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.locationId !== undefined ? { location_id: changes.locationId } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    updated_at: now,
  }).where("id", "=", id).returningAll().executeTakeFirst();
  return row && toRegister(row);
}

export async function deleteRegisterRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("registers").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ================================================================ drawer sessions

export interface DrawerSessionRecord {
  id: string;
  registerId: string;
  locationId: string;
  status: "open" | "closed";
  openingBalance: string;
  closingBalance: string | null;
  expectedBalance: string | null;
  overShort: string | null;
  notes: string | null;
  openedBy: string | null;
  closedBy: string | null;
  openedAt: string;
  closedAt: string | null;
  zReport: Record<string, unknown> | null;
}

type SessionRow = Selectable<DrawerSessionTable>;

function toSession(row: SessionRow): DrawerSessionRecord {
  let report = row.z_report as unknown;
  if (typeof report === "string") report = JSON.parse(report);
  return {
    id: row.id,
    registerId: row.register_id,
    locationId: row.location_id,
    status: row.status,
    openingBalance: row.opening_balance,
    closingBalance: row.closing_balance,
    expectedBalance: row.expected_balance,
    overShort: row.over_short,
    notes: row.notes,
    openedBy: row.opened_by,
    closedBy: row.closed_by,
    openedAt: iso(row.opened_at),
    closedAt: isoOrNull(row.closed_at),
    zReport: (report as Record<string, unknown> | null) ?? null,
  };
}

export async function insertDrawerSession(
  db: Db,
  values: {
    id: string;
    registerId: string;
    locationId: string;
    openingBalance: string;
    openedBy: string;
    now: Date;
  },
): Promise<DrawerSessionRecord> {
  const row = await db.insertInto("drawer_sessions").values({
    id: values.id,
    register_id: values.registerId,
    location_id: values.locationId,
    status: "open",
    opening_balance: values.openingBalance,
    opened_by: values.openedBy,
    opened_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toSession(row);
}

export async function findDrawerSession(
  db: Db,
  id: string,
  lock?: "update" | "share",
): Promise<DrawerSessionRecord | undefined> {
  let query = db.selectFrom("drawer_sessions").selectAll().where("id", "=", id);
  if (lock === "update") query = query.forUpdate();
  if (lock === "share") query = query.forShare();
  const row = await query.executeTakeFirst();
  return row && toSession(row);
}

/**
 * The open sessions at a location or of a register. With `lock`, they are locked FOR SHARE:
 * a concurrent close (FOR UPDATE) waits until the caller commits, and a session closed in the
 * meantime is re-checked and left out.
 */
export async function findOpenSessions(
  db: Db,
  where: { locationId?: string; registerId?: string },
  lock = false,
): Promise<DrawerSessionRecord[]> {
  let query = db.selectFrom("drawer_sessions").selectAll().where("status", "=", "open");
  if (where.locationId) query = query.where("location_id", "=", where.locationId);
  if (where.registerId) query = query.where("register_id", "=", where.registerId);
  query = query.orderBy("opened_at").orderBy("id");
  if (lock) query = query.forShare();
  const rows = await query.execute();
  return rows.map(toSession);
}

export interface DrawerFilters {
  registerId?: string;
  locationId?: string;
  status?: "open" | "closed";
  fromAt?: Date;
  toAt?: Date;
}

export function listDrawerSessions(db: Db, params: ListParams & DrawerFilters) {
  let query = db.selectFrom("drawer_sessions").select([
    "id",
    "register_id",
    "location_id",
    "status",
    "opening_balance",
    "closing_balance",
    "expected_balance",
    "over_short",
    "notes",
    "opened_by",
    "closed_by",
    "opened_at",
    "closed_at",
    sql<null>`NULL::jsonb`.as("z_report"),
  ]);
  if (params.registerId) query = query.where("register_id", "=", params.registerId);
  if (params.locationId) query = query.where("location_id", "=", params.locationId);
  if (params.status) query = query.where("status", "=", params.status);
  if (params.fromAt) query = query.where("opened_at", ">=", params.fromAt);
  if (params.toAt) query = query.where("opened_at", "<", params.toAt);
  if (params.q) {
    const pattern = likePattern(params.q);
    query = query.where((eb) =>
      eb.or([
        eb(
          "register_id",
          "in",
          eb.selectFrom("registers").select("id").where("name", "ilike", pattern),
        ),
        eb("notes", "ilike", pattern),
      ])
    );
  }
  return paginate(query, params, {
    sortColumns: { openedAt: "opened_at", closedAt: "closed_at", createdAt: "opened_at" },
    tieBreaker: "id",
    map: (row) => {
      const { zReport: _, ...rest } = toSession(row as SessionRow);
      return rest;
    },
  });
}

export async function closeDrawerSessionRow(
  db: Db,
  id: string,
  values: {
    closingBalance: string;
    expectedBalance: string;
    overShort: string;
    notes: string | null;
    closedBy: string;
    report: unknown;
    now: Date;
  },
): Promise<DrawerSessionRecord> {
  const row = await db.updateTable("drawer_sessions").set({
    status: "closed",
    closing_balance: values.closingBalance,
    expected_balance: values.expectedBalance,
    over_short: values.overShort,
    notes: values.notes,
    closed_by: values.closedBy,
    closed_at: values.now,
    z_report: jsonb(values.report) as never,
  }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
  return toSession(row);
}

/** Sessions of a location that belong to a store-local day: closed in it, or still open. */
export async function findSessionsForDay(
  db: Db,
  locationId: string,
  range: { start: Date; end: Date },
  includeOpen: boolean,
): Promise<DrawerSessionRecord[]> {
  const rows = await db.selectFrom("drawer_sessions").selectAll()
    .where("location_id", "=", locationId)
    .where((eb) => {
      const closedInDay = eb.and([
        eb("status", "=", "closed"),
        eb("closed_at", ">=", range.start),
        eb("closed_at", "<", range.end),
      ]);
      return includeOpen ? eb.or([closedInDay, eb("status", "=", "open")]) : closedInDay;
    })
    .orderBy("opened_at").orderBy("id").execute();
  return rows.map(toSession);
}

// ================================================================ adjustments

export interface AdjustmentRecord {
  id: string;
  drawerSessionId: string;
  direction: "in" | "out";
  amount: string;
  reason: string;
  createdBy: string | null;
  approvedBy: string | null;
  createdAt: string;
}

function toAdjustment(row: Selectable<DrawerAdjustmentTable>): AdjustmentRecord {
  return {
    id: row.id,
    drawerSessionId: row.drawer_session_id,
    direction: row.direction,
    amount: row.amount,
    reason: row.reason,
    createdBy: row.created_by,
    approvedBy: row.approved_by,
    createdAt: iso(row.created_at),
  };
}

export async function insertAdjustment(
  db: Db,
  values: {
    id: string;
    drawerSessionId: string;
    direction: "in" | "out";
    amount: string;
    reason: string;
    createdBy: string;
    approvedBy: string | null;
    now: Date;
  },
): Promise<AdjustmentRecord> {
  const row = await db.insertInto("drawer_adjustments").values({
    id: values.id,
    drawer_session_id: values.drawerSessionId,
    direction: values.direction,
    amount: values.amount,
    reason: values.reason,
    created_by: values.createdBy,
    approved_by: values.approvedBy,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toAdjustment(row);
}

export function listAdjustments(db: Db, sessionId: string, params: ListParams) {
  let query = db.selectFrom("drawer_adjustments").selectAll()
    .where("drawer_session_id", "=", sessionId);
  if (params.q) query = query.where("reason", "ilike", likePattern(params.q));
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at" },
    tieBreaker: "id",
    map: toAdjustment,
  });
}

export async function findAdjustmentsOfSessions(
  db: Db,
  sessionIds: readonly string[],
): Promise<AdjustmentRecord[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db.selectFrom("drawer_adjustments").selectAll()
    .where("drawer_session_id", "in", sessionIds).orderBy("created_at").orderBy("id").execute();
  return rows.map(toAdjustment);
}

// ================================================================ transactions

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
  originalTransactionId: string | null;
  discountKind: "percent" | "amount" | null;
  discountValue: string | null;
  subtotal: string;
  discountTotal: string;
  taxTotal: string;
  total: string;
  amountPaid: string;
  taxExempt: boolean;
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

type TransactionRow = Selectable<TransactionTable>;

function toTransaction(row: TransactionRow): TransactionRecord {
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
    originalTransactionId: row.original_transaction_id,
    discountKind: row.discount_kind,
    discountValue: row.discount_value,
    subtotal: row.subtotal,
    discountTotal: row.discount_total,
    taxTotal: row.tax_total,
    total: row.total,
    amountPaid: row.amount_paid,
    taxExempt: row.tax_exempt,
    reason: row.reason,
    voidReason: row.void_reason,
    createdBy: row.created_by,
    approvedBy: row.approved_by,
    completedBy: row.completed_by,
    voidedBy: row.voided_by,
    voidApprovedBy: row.void_approved_by,
    completedAt: isoOrNull(row.completed_at),
    voidedAt: isoOrNull(row.voided_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
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
  originalTransactionId?: string | null;
  taxExempt: boolean;
  reason?: string | null;
  createdBy: string;
  approvedBy?: string | null;
  completedBy?: string | null;
  completedAt?: Date | null;
  totals?: TotalsColumns;
  amountPaid?: string;
  now: Date;
}

export interface TotalsColumns {
  subtotal: string;
  discountTotal: string;
  taxTotal: string;
  total: string;
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
    original_transaction_id: v.originalTransactionId ?? null,
    tax_exempt: v.taxExempt,
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
    created_at: v.now,
    updated_at: v.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toTransaction(row);
}

/** The transaction; with `lock`, its row is locked FOR UPDATE until the caller commits. */
export async function findTransaction(
  db: Db,
  id: string,
  lock = false,
): Promise<TransactionRecord | undefined> {
  let query = db.selectFrom("transactions").selectAll().where("id", "=", id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toTransaction(row);
}

/**
 * Locks the transaction row FOR UPDATE and tells whether it exists. Its own statement on
 * purpose: a statement that waits for a row lock keeps the snapshot it started with, so reading
 * the lines and payments in the same statement could miss a change committed while waiting.
 */
export function lockTransactionRow(db: Db, id: string): Promise<boolean> {
  return hasRow(db.selectFrom("transactions").select("id").where("id", "=", id).forUpdate());
}

export interface TransactionChanges {
  status?: TransactionStatus;
  registerId?: string | null;
  drawerSessionId?: string | null;
  discountKind?: "percent" | "amount" | null;
  discountValue?: string | null;
  totals?: TotalsColumns;
  amountPaid?: string;
  taxExempt?: boolean;
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
    ...(c.totals
      ? {
        subtotal: c.totals.subtotal,
        discount_total: c.totals.discountTotal,
        tax_total: c.totals.taxTotal,
        total: c.totals.total,
      }
      : {}),
    ...(c.amountPaid !== undefined ? { amount_paid: c.amountPaid } : {}),
    ...(c.taxExempt !== undefined ? { tax_exempt: c.taxExempt } : {}),
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
 * One query per page. `itemSearch` is an EXISTS over the transaction's items with an ILIKE
 * on `description`, served by the trigram GIN index `transaction_items_description_trgm_idx`.
 * `q` matches the transaction number (exactly, digits with an optional `#`), any line's
 * description (same index) or the account's name (`accounts_name_trgm`): a union of ids,
 * each branch served by its index.
 */
export function listTransactions(db: Db, params: ListParams & TransactionFilters) {
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
    const pattern = likePattern(params.itemSearch);
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("transaction_items as ti").select(sql`1`.as("one"))
          .whereRef("ti.transaction_id", "=", "transactions.id")
          .where("ti.description", "ilike", pattern),
      )
    );
  }
  if (params.q) {
    const pattern = likePattern(params.q);
    const number = /^#?\d{1,15}$/.test(params.q) ? Number(params.q.replace("#", "")) : undefined;
    query = query.where("transactions.id", "in", (eb) => {
      const byItem = eb.selectFrom("transaction_items as qi").select("qi.transaction_id as id")
        .where("qi.description", "ilike", pattern);
      const byAccount = eb.selectFrom("transactions as qa")
        .innerJoin("accounts as qacc", "qacc.id", "qa.account_id").select("qa.id as id")
        .where("qacc.name", "ilike", pattern);
      const matches = byItem.union(byAccount);
      return number === undefined ? matches : matches.union(
        eb.selectFrom("transactions as qn").select("qn.id as id").where("qn.number", "=", number),
      );
    });
  }
  return paginate(query, params, {
    sortColumns: {
      createdAt: "transactions.created_at",
      completedAt: "transactions.completed_at",
      total: "transactions.total",
      number: "transactions.number",
    },
    tieBreaker: "transactions.id",
    map: (row) => toTransaction(row as TransactionRow),
  });
}

// ================================================================ items

export interface ItemRecord {
  id: string;
  transactionId: string;
  kind: "sale" | "labor" | "part";
  productId: string | null;
  unitId: string | null;
  originalItemId: string | null;
  description: string;
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
  gross: string;
  discount: string;
  net: string;
  tax: string;
  refundedQuantity: number;
  refundedNet: string;
  refundedTax: string;
  createdAt: string;
}

function toItem(row: Selectable<TransactionItemTable>): ItemRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    kind: row.kind,
    productId: row.product_id,
    unitId: row.unit_id,
    originalItemId: row.original_item_id,
    description: row.description,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    taxCategory: row.tax_category,
    isConsumable: row.is_consumable,
    gross: row.gross,
    discount: row.discount,
    net: row.net,
    tax: row.tax,
    refundedQuantity: row.refunded_quantity,
    refundedNet: row.refunded_net,
    refundedTax: row.refunded_tax,
    createdAt: iso(row.created_at),
  };
}

export interface NewItem {
  id: string;
  transactionId: string;
  kind: "sale" | "labor" | "part";
  productId: string | null;
  unitId: string | null;
  originalItemId?: string | null;
  description: string;
  quantity: number;
  unitPrice: string;
  taxCategory: "goods" | "service";
  isConsumable: boolean;
  gross?: string;
  discount?: string;
  net?: string;
  tax?: string;
  createdAt: Date;
}

export async function insertItems(db: Db, items: readonly NewItem[]): Promise<ItemRecord[]> {
  if (items.length === 0) return [];
  const rows = await db.insertInto("transaction_items").values(items.map((i) => ({
    id: i.id,
    transaction_id: i.transactionId,
    kind: i.kind,
    product_id: i.productId,
    unit_id: i.unitId,
    original_item_id: i.originalItemId ?? null,
    description: i.description,
    quantity: i.quantity,
    unit_price: i.unitPrice,
    tax_category: i.taxCategory,
    is_consumable: i.isConsumable,
    ...(i.gross !== undefined ? { gross: i.gross } : {}),
    ...(i.discount !== undefined ? { discount: i.discount } : {}),
    ...(i.net !== undefined ? { net: i.net } : {}),
    ...(i.tax !== undefined ? { tax: i.tax } : {}),
    created_at: i.createdAt,
  }))).returningAll().execute();
  return rows.map(toItem);
}

/** Items in the order they were added. */
export async function findItems(db: Db, transactionId: string): Promise<ItemRecord[]> {
  const rows = await db.selectFrom("transaction_items").selectAll()
    .where("transaction_id", "=", transactionId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toItem);
}

/** Items with the type of their product (null without one), for stock effects. */
export async function findItemsWithProductType(
  db: Db,
  transactionId: string,
): Promise<Array<ItemRecord & { productType: string | null }>> {
  const rows = await db.selectFrom("transaction_items as ti")
    .leftJoin("products as p", "p.id", "ti.product_id")
    .selectAll("ti")
    .select("p.type as product_type")
    .where("ti.transaction_id", "=", transactionId)
    .orderBy("ti.created_at").orderBy("ti.id").execute();
  return rows.map(({ product_type, ...row }) => ({
    ...toItem(row as Selectable<TransactionItemTable>),
    productType: product_type ?? null,
  }));
}

export async function updateItemRow(
  db: Db,
  id: string,
  changes: {
    kind?: "sale" | "labor" | "part";
    description?: string;
    quantity?: number;
    unitPrice?: string;
    taxCategory?: "goods" | "service";
  },
): Promise<void> {
  await db.updateTable("transaction_items").set({
    ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.quantity !== undefined ? { quantity: changes.quantity } : {}),
    ...(changes.unitPrice !== undefined ? { unit_price: changes.unitPrice } : {}),
    ...(changes.taxCategory !== undefined ? { tax_category: changes.taxCategory } : {}),
  }).where("id", "=", id).execute();
}

export async function deleteItemRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("transaction_items").where("id", "=", id).execute();
}

/** Writes every line's computed amounts in one statement. */
export async function saveItemAmounts(
  db: Db,
  items: ReadonlyArray<{ id: string; gross: string; discount: string; net: string; tax: string }>,
): Promise<void> {
  if (items.length === 0) return;
  const values = sql.join(
    items.map((i) =>
      sql`(${i.id}::uuid, ${i.gross}::numeric, ${i.discount}::numeric, ${i.net}::numeric, ${i.tax}::numeric)`
    ),
  );
  await sql`UPDATE transaction_items AS ti
    SET gross = v.gross, discount = v.discount, net = v.net, tax = v.tax
    FROM (VALUES ${values}) AS v(id, gross, discount, net, tax)
    WHERE ti.id = v.id`.execute(db);
}

/** Adds a refund to the original lines' running refunded figures (the CHECK caps quantity). */
export async function addRefundedAmounts(
  db: Db,
  items: ReadonlyArray<{ id: string; quantity: number; net: string; tax: string }>,
): Promise<void> {
  if (items.length === 0) return;
  const values = sql.join(
    items.map((i) =>
      sql`(${i.id}::uuid, ${i.quantity}::integer, ${i.net}::numeric, ${i.tax}::numeric)`
    ),
  );
  await sql`UPDATE transaction_items AS ti
    SET refunded_quantity = ti.refunded_quantity + v.quantity,
        refunded_net = ti.refunded_net + v.net,
        refunded_tax = ti.refunded_tax + v.tax
    FROM (VALUES ${values}) AS v(id, quantity, net, tax)
    WHERE ti.id = v.id`.execute(db);
}

// ================================================================ payments

export interface PaymentRecord {
  id: string;
  transactionId: string;
  method: "cash" | "card" | "check" | "store_credit" | "other";
  amount: string;
  tendered: string;
  change: string;
  reference: string | null;
  isRefund: boolean;
  createdBy: string | null;
  createdAt: string;
}

function toPayment(row: Selectable<PaymentTable>): PaymentRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    method: row.method,
    amount: row.amount,
    tendered: row.tendered,
    change: row.change,
    reference: row.reference,
    isRefund: row.is_refund,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
  };
}

export async function insertPayment(
  db: Db,
  values: {
    id: string;
    transactionId: string;
    method: PaymentRecord["method"];
    amount: string;
    tendered: string;
    change: string;
    reference: string | null;
    isRefund: boolean;
    createdBy: string;
    now: Date;
  },
): Promise<PaymentRecord> {
  const row = await db.insertInto("payments").values({
    id: values.id,
    transaction_id: values.transactionId,
    method: values.method,
    amount: values.amount,
    tendered: values.tendered,
    change: values.change,
    reference: values.reference,
    is_refund: values.isRefund,
    created_by: values.createdBy,
    created_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toPayment(row);
}

export async function findPayments(db: Db, transactionId: string): Promise<PaymentRecord[]> {
  const rows = await db.selectFrom("payments").selectAll()
    .where("transaction_id", "=", transactionId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toPayment);
}

// ================================================================ report data

export interface SessionReportRows {
  transactions: TransactionRecord[];
  items: ItemRecord[];
  payments: PaymentRecord[];
}

/**
 * Everything the drawer reports of `sessionIds` need, in three queries (transactions, their
 * items, their payments), whatever the number of sessions.
 */
export async function findSessionReportRows(
  db: Db,
  sessionIds: readonly string[],
): Promise<SessionReportRows> {
  if (sessionIds.length === 0) return { transactions: [], items: [], payments: [] };
  const txRows = await db.selectFrom("transactions").selectAll()
    .where("drawer_session_id", "in", sessionIds)
    .where("status", "=", "complete")
    .orderBy("created_at").orderBy("id").execute();
  if (txRows.length === 0) return { transactions: [], items: [], payments: [] };
  const itemRows = await db.selectFrom("transaction_items as ti")
    .innerJoin("transactions as t", "t.id", "ti.transaction_id")
    .selectAll("ti")
    .where("t.drawer_session_id", "in", sessionIds).where("t.status", "=", "complete")
    .execute();
  const paymentRows = await db.selectFrom("payments as p")
    .innerJoin("transactions as t", "t.id", "p.transaction_id")
    .selectAll("p")
    .where("t.drawer_session_id", "in", sessionIds).where("t.status", "=", "complete")
    .execute();
  return {
    transactions: txRows.map(toTransaction),
    items: itemRows.map((r) => toItem(r as Selectable<TransactionItemTable>)),
    payments: paymentRows.map((r) => toPayment(r as Selectable<PaymentTable>)),
  };
}

// ================================================================ lookups of other features

/** Names of users for receipts (cashier). */
export async function findUserName(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select(["first_name", "last_name"])
    .where("id", "=", id).executeTakeFirst();
  return row ? `${row.first_name} ${row.last_name}`.trim() : undefined;
}

/** Products referenced by new lines, in one query (soft-deleted ones are left out). */
export async function findProductsForSale(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await db.selectFrom("products")
    .select(["id", "name", "price", "type", "is_consumable", "is_active", "tax_category"])
    .where("id", "in", ids).where("deleted_at", "is", null).execute();
}

/** Units referenced by new lines, in one query. */
export async function findUnitsForSale(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await db.selectFrom("units").select(["id", "product_id", "status"])
    .where("id", "in", ids).where("deleted_at", "is", null).execute();
}

/** Locks units (in id order, so concurrent sales never deadlock) and returns their status. */
export async function lockUnits(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await db.selectFrom("units").select(["id", "status"]).where("id", "in", ids)
    .orderBy("id").forUpdate().execute();
}

/** A location by id, or by name (case-insensitive), for `ops report daily --location`. */
export async function findLocationIdByIdOrName(
  db: Db,
  idOrName: string,
): Promise<string[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  const rows = await db.selectFrom("locations").select("id")
    .where((eb) =>
      isUuid
        ? eb.or([eb("id", "=", idOrName), eb(sql`lower(name)`, "=", idOrName.toLowerCase())])
        : eb(sql`lower(name)`, "=", idOrName.toLowerCase())
    ).execute();
  return rows.map((r) => r.id);
}

/**
 * Adds `delta` to the stock of several products in one statement. The rows are locked in
 * product id order first (the CTE), so concurrent sales of the same products never deadlock;
 * `qty_on_hand = qty_on_hand + delta` never loses an update.
 */
export async function adjustStockOfProducts(
  db: Db,
  deltas: ReadonlyArray<{ productId: string; delta: number }>,
  now: Date,
): Promise<void> {
  if (deltas.length === 0) return;
  const ids = deltas.map((d) => d.productId);
  const values = sql.join(deltas.map((d) => sql`(${d.productId}::uuid, ${d.delta}::integer)`));
  await sql`
    WITH locked AS (
      SELECT id FROM products WHERE id IN (${sql.join(ids)}) ORDER BY id FOR NO KEY UPDATE
    )
    UPDATE products AS p SET qty_on_hand = p.qty_on_hand + v.delta, updated_at = ${now}
    FROM locked JOIN (VALUES ${values}) AS v(id, delta) ON v.id = locked.id
    WHERE p.id = locked.id`.execute(db);
}

/**
 * The completion hot path's read, in one round trip, run after `lockTransactionRow` (so it
 * reads with a snapshot taken once the lock is held): the transaction (FOR UPDATE again, a
 * no-op for the holder), its
 * items (with their product's type) and payments, and the open drawer sessions of
 * `registerId` (when given) or else of the transaction's location, locked FOR SHARE (a
 * concurrent close waits until we commit; a session closed meanwhile is re-checked and left
 * out), in `opened_at, id` order.
 */
export async function lockTransactionForCompletion(
  db: Db,
  id: string,
  registerId: string | undefined,
): Promise<
  | {
    tx: TransactionRecord;
    items: Array<ItemRecord & { productType: string | null }>;
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
          'original_item_id', ti.original_item_id, 'description', ti.description,
          'quantity', ti.quantity, 'unit_price', ti.unit_price::text,
          'tax_category', ti.tax_category, 'is_consumable', ti.is_consumable,
          'gross', ti.gross::text, 'discount', ti.discount::text, 'net', ti.net::text,
          'tax', ti.tax::text, 'refunded_quantity', ti.refunded_quantity,
          'refunded_net', ti.refunded_net::text, 'refunded_tax', ti.refunded_tax::text,
          'created_at', ti.created_at, 'product_type', p.type
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
    FROM t`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const parse = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  const { items_json, payments_json, sessions_json, ...txRow } = row;
  const items =
    (parse(items_json) as Array<Selectable<TransactionItemTable> & { product_type: string | null }>)
      .map(({ product_type, ...item }) => ({ ...toItem(item), productType: product_type }));
  const payments = (parse(payments_json) as Selectable<PaymentTable>[]).map(toPayment);
  const sessions = (parse(sessions_json) as SessionRow[]).map(toSession);
  return { tx: toTransaction(txRow as TransactionRow), items, payments, sessions };
}

/**
 * Completes a sale in one statement: adds each delta to its product's stock (rows locked in
 * product id order first, so concurrent sales never deadlock; `qty_on_hand + delta` never
 * loses an update) in a data-modifying CTE, and marks the transaction complete, returning it.
 */
export async function completeTransactionRow(
  db: Db,
  id: string,
  values: { drawerSessionId: string; registerId: string; completedBy: string },
  deltas: ReadonlyArray<{ productId: string; delta: number }>,
  now: Date,
): Promise<TransactionRecord> {
  const stock = deltas.length === 0 ? sql`` : sql`
    locked AS (
      SELECT id FROM products WHERE id IN (${sql.join(deltas.map((d) => d.productId))})
      ORDER BY id FOR NO KEY UPDATE
    ),
    stock AS (
      UPDATE products AS p SET qty_on_hand = p.qty_on_hand + v.delta, updated_at = ${now}
      FROM locked JOIN (VALUES ${
    sql.join(deltas.map((d) => sql`(${d.productId}::uuid, ${d.delta}::integer)`))
  }) AS v(id, delta) ON v.id = locked.id
      WHERE p.id = locked.id
      RETURNING p.id
    ),`;
  const result = await sql<TransactionRow>`
    WITH ${stock} done AS (
      UPDATE transactions SET status = 'complete', drawer_session_id = ${values.drawerSessionId},
        register_id = ${values.registerId}, completed_at = ${now},
        completed_by = ${values.completedBy}, updated_at = ${now}
      WHERE id = ${id}
      RETURNING *
    )
    SELECT * FROM done`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error(`Transaction "${id}" vanished while completing`);
  return toTransaction(row);
}
