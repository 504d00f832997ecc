/**
 * Use cases of a ticket's line items (API §9): each change locks the ticket, checks that the
 * line belongs to it (a line under another ticket's path → 404, left alone), and rewrites the
 * ticket's `customerTotal`/`internalCost` from its lines in the same transaction.
 *
 * Repair parts take stock (API §22 "Repair parts"): a line naming a product takes its quantity
 * out of stock when added, gives it back when deleted and moves the difference when its
 * quantity or product changes, through inventory's `moveRepairPartStock`, in the same
 * transaction (under the ticket's lock, so edits of one ticket's lines never race; the stock
 * update itself is atomic, so edits of other tickets or sales of the product never lose one).
 * The statement that writes a line records what it holds (`stock`), and moves go from what it
 * held to what it holds (domain `partStockAfterEdit`): a line written before parts took stock
 * holds nothing, so deleting it gives nothing back, and an edit of its quantity or product
 * takes the new quantity in full. A part is taken once, here: the lines a repair_payment
 * copies from the ticket carry no product, so completing it takes nothing again. Cancelling,
 * deleting or paying for a ticket leaves its parts used; deleting the line gives them back.
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import {
  type LineItemProduct,
  type PartStock,
  partStockAfterEdit,
  partStockMoves,
  partStockOf,
  resolveLineItem,
} from "../../domain/repairs/line_items.ts";
import { ticketTotals } from "../../domain/repairs/ticket_money.ts";
import type { Actor } from "../actor.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { moveRepairPartStock } from "../inventory/stock.ts";
import { findProductsForSale } from "../inventory/stock_repo.ts";
import type { ListParams } from "../schemas.ts";
import {
  deleteLineItemRow,
  findLineItem,
  insertLineItems,
  listAllLineItems,
  listLineItems,
  updateLineItemRow,
} from "./line_items_repo.ts";
import type { TemplateLineItem } from "./repairs_tables.ts";
import type { CreateLineItemInput, LineItemJson, UpdateLineItemInput } from "./repair_schemas.ts";
import { requireLockedTicket, requireTicket } from "./ticket_lookup.ts";
import { saveTicketTotals } from "./tickets_repo.ts";

function lineNotFound(ticketId: string, id: string): NotFoundError {
  return new NotFoundError("not_found", `Ticket "${ticketId}" has no line item "${id}"`);
}

/** The products lines name, by id (consumables and inactive ones included; deleted ones not). */
export async function productsOf(
  db: Db,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<Map<string, LineItemProduct>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === "string"))];
  return new Map((await findProductsForSale(db, wanted)).map((p) => [p.id, p]));
}

/**
 * Moves the stock of the ticket's parts as its lines go from holding `before` to holding
 * `after` (see the file's comment); `actorId` null for the system.
 */
async function moveParts(
  trx: Transaction<Database>,
  ticketId: string,
  actorId: string | null,
  before: readonly PartStock[],
  after: readonly PartStock[],
  now: Date,
): Promise<void> {
  await moveRepairPartStock(
    trx,
    { repairTicketId: ticketId, actorId },
    partStockMoves(before, after),
    now,
  );
}

/** Rewrites the ticket's totals from its lines (its row is locked by the caller). */
export async function saveTotalsOf(trx: Db, ticketId: string, now: Date): Promise<void> {
  const lines = await listAllLineItems(trx, ticketId);
  const totals = ticketTotals(
    lines.map((l) => ({ ...l, unitPriceCents: parseMoney(l.unitPrice) })),
  );
  await saveTicketTotals(trx, ticketId, {
    customerTotal: formatMoney(totals.customerTotalCents),
    internalCost: formatMoney(totals.internalCostCents),
  }, now);
}

export async function listLineItemsOf(
  deps: Pick<AppDeps, "db">,
  ticketId: string,
  params: ListParams & { kind?: "labor" | "part" },
) {
  await requireTicket(deps.db, ticketId);
  return await listLineItems(deps.db, ticketId, params);
}

export async function getLineItem(
  deps: Pick<AppDeps, "db">,
  ticketId: string,
  id: string,
): Promise<LineItemJson> {
  await requireTicket(deps.db, ticketId);
  const line = await findLineItem(deps.db, ticketId, id);
  if (!line) throw lineNotFound(ticketId, id);
  return line.item;
}

export async function addLineItem(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  input: CreateLineItemInput,
): Promise<LineItemJson> {
  return await withTransaction(deps.db, async (trx) => {
    await requireLockedTicket(trx, ticketId);
    const products = await productsOf(trx, [input.productId]);
    const product = input.productId ? products.get(input.productId) : undefined;
    const line = resolveLineItem(input, product);
    const stock = partStockOf(line, product);
    const now = deps.clock.now();
    const [item] = await insertLineItems(trx, ticketId, [
      { ...line, stock, id: deps.ids.uuid(), now },
    ]);
    await moveParts(trx, ticketId, actor.userId, [], [stock], now);
    await saveTotalsOf(trx, ticketId, now);
    return item!;
  });
}

/**
 * Copies a service template's default lines onto a new ticket (its row is being created);
 * their parts are taken from stock like any line added.
 */
export async function addTemplateLines(
  deps: Pick<AppDeps, "ids">,
  trx: Transaction<Database>,
  actor: Actor,
  ticketId: string,
  lines: readonly TemplateLineItem[],
  now: Date,
): Promise<void> {
  if (lines.length === 0) return;
  const products = await productsOf(trx, lines.map((l) => l.productId));
  const resolved = lines.map((line, i) => {
    const product = line.productId ? products.get(line.productId) : undefined;
    if (line.productId && !product) {
      throw new InvalidReferenceError(
        "serviceTemplateId",
        `Line ${i + 1} of the service template names product "${line.productId}", which no ` +
          "longer exists: fix the template first",
      );
    }
    const path = `serviceTemplate.defaultLineItems[${i}]`;
    const resolved = resolveLineItem(line, product, { path });
    return { ...resolved, stock: partStockOf(resolved, product) };
  });
  // Line i is created at now + i ms, so the template's order stays the ticket's order.
  await insertLineItems(
    trx,
    ticketId,
    resolved.map((line, i) => ({
      ...line,
      id: deps.ids.uuid(),
      now: new Date(now.getTime() + i),
    })),
  );
  await moveParts(trx, ticketId, actor.userId, [], resolved.map((line) => line.stock), now);
  await saveTotalsOf(trx, ticketId, now);
}

export async function changeLineItem(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  id: string,
  input: UpdateLineItemInput,
): Promise<LineItemJson> {
  return await withTransaction(deps.db, async (trx) => {
    await requireLockedTicket(trx, ticketId);
    const found = await findLineItem(trx, ticketId, id);
    if (!found) throw lineNotFound(ticketId, id);
    const current = found.item;
    const productId = input.productId === undefined ? current.productId : input.productId;
    const productChanged = productId !== current.productId;
    const products = await productsOf(trx, [productId]);
    const product = productId ? products.get(productId) : undefined;
    const line = resolveLineItem(
      {
        kind: input.kind ?? current.kind,
        quantity: input.quantity ?? current.quantity,
        // A new product brings its own name and price unless they are given too.
        description: input.description ??
          (productChanged && productId ? null : current.description),
        unitPrice: input.unitPrice ?? (productChanged && productId ? null : current.unitPrice),
        productId,
      },
      product,
      { kept: current.productId },
    );
    const stock = partStockAfterEdit({ ...current, stock: found.stock }, line, product);
    const now = deps.clock.now();
    const updated = await updateLineItemRow(trx, ticketId, id, { ...line, stock }, now);
    if (!updated) throw lineNotFound(ticketId, id);
    await moveParts(trx, ticketId, actor.userId, [found.stock], [stock], now);
    await saveTotalsOf(trx, ticketId, now);
    return updated;
  });
}

export async function removeLineItem(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  id: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await requireLockedTicket(trx, ticketId);
    const removed = await deleteLineItemRow(trx, ticketId, id);
    if (!removed) throw lineNotFound(ticketId, id);
    const now = deps.clock.now();
    await moveParts(trx, ticketId, actor.userId, [removed.stock], [], now);
    await saveTotalsOf(trx, ticketId, now);
  });
}
