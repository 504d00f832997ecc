/**
 * SQL of repair line items. Every change runs while the caller holds the ticket's row lock
 * (`lockTicket`), and rewrites the ticket's totals in the same transaction. A line's `stock`
 * (what it holds from stock, API §22 "Repair parts") is written by the statement that adds
 * or changes it and never leaves this feature: it is not on the wire.
 */
import type { Selectable } from "kysely";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import type { PartStock } from "../../domain/repairs/line_items.ts";
import { lineAmountCents } from "../../domain/repairs/ticket_money.ts";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { RepairLineItemTable } from "./repairs_tables.ts";
import type { LineItemJson } from "./repair_schemas.ts";

type LineItemRow = Selectable<RepairLineItemTable>;

function toLineItem(row: LineItemRow): LineItemJson {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    kind: row.kind,
    description: row.description,
    quantity: Number(row.quantity),
    unitPrice: row.unit_price,
    amount: formatMoney(
      lineAmountCents({
        quantity: Number(row.quantity),
        unitPriceCents: parseMoney(row.unit_price),
      }),
    ),
    productId: row.product_id,
    isInternal: row.is_internal,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** A line with what it holds from stock. */
export interface HeldLineItem {
  item: LineItemJson;
  stock: PartStock;
}

function toHeldLineItem(row: LineItemRow): HeldLineItem {
  return {
    item: toLineItem(row),
    stock: { productId: row.stock_product_id, quantity: Number(row.stock_quantity) },
  };
}

/** Every line of a ticket, in the order they were added. */
export async function listAllLineItems(db: Db, ticketId: string): Promise<LineItemJson[]> {
  const rows = await db.selectFrom("repair_line_items").selectAll().where(
    "ticket_id",
    "=",
    ticketId,
  )
    .orderBy("created_at").orderBy("id").execute();
  return rows.map(toLineItem);
}

export function listLineItems(
  db: Db,
  ticketId: string,
  params: ListParams & { kind?: "labor" | "part" },
) {
  let query = db.selectFrom("repair_line_items").selectAll().where("ticket_id", "=", ticketId);
  // One ticket's lines: the ticket index narrows, no search index needed.
  if (params.q) query = query.where(containsText("description", params.q));
  if (params.kind) query = query.where("kind", "=", params.kind);
  return paginate(query, params, {
    sortColumns: { createdAt: "created_at", kind: "kind", description: "description" },
    tieBreaker: "id",
    map: toLineItem,
  });
}

/** The line and what it holds, when it belongs to that ticket. */
export async function findLineItem(
  db: Db,
  ticketId: string,
  id: string,
): Promise<HeldLineItem | undefined> {
  const row = await db.selectFrom("repair_line_items").selectAll().where("id", "=", id)
    .where("ticket_id", "=", ticketId).executeTakeFirst();
  return row && toHeldLineItem(row);
}

export interface LineItemValues {
  kind: "labor" | "part";
  description: string;
  quantity: number;
  unitPrice: string;
  productId: string | null;
  isInternal: boolean;
  /** What the line holds from stock once written. */
  stock: PartStock;
}

export async function insertLineItems(
  db: Db,
  ticketId: string,
  items: ReadonlyArray<LineItemValues & { id: string; now: Date }>,
): Promise<LineItemJson[]> {
  if (items.length === 0) return [];
  const rows = await db.insertInto("repair_line_items").values(items.map((item) => ({
    id: item.id,
    ticket_id: ticketId,
    kind: item.kind,
    description: item.description,
    quantity: item.quantity,
    unit_price: item.unitPrice,
    product_id: item.productId,
    is_internal: item.isInternal,
    stock_product_id: item.stock.productId,
    stock_quantity: item.stock.quantity,
    created_at: item.now,
    updated_at: item.now,
  }))).returningAll().execute();
  return rows.map(toLineItem);
}

export async function updateLineItemRow(
  db: Db,
  ticketId: string,
  id: string,
  values: LineItemValues,
  now: Date,
): Promise<LineItemJson | undefined> {
  const row = await db.updateTable("repair_line_items").set({
    kind: values.kind,
    description: values.description,
    quantity: values.quantity,
    unit_price: values.unitPrice,
    product_id: values.productId,
    is_internal: values.isInternal,
    stock_product_id: values.stock.productId,
    stock_quantity: values.stock.quantity,
    updated_at: now,
  }).where("id", "=", id).where("ticket_id", "=", ticketId).returningAll().executeTakeFirst();
  return row && toLineItem(row);
}

/**
 * Deletes the line when it belongs to that ticket; the line deleted and what it held, else
 * undefined.
 */
export async function deleteLineItemRow(
  db: Db,
  ticketId: string,
  id: string,
): Promise<HeldLineItem | undefined> {
  const row = await db.deleteFrom("repair_line_items").where("id", "=", id)
    .where("ticket_id", "=", ticketId).returningAll().executeTakeFirst();
  return row && toHeldLineItem(row);
}
