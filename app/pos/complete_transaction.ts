/**
 * Completing a sale (API §8) in one database transaction with a bounded number of queries
 * (independent of history size): lock the transaction row FOR UPDATE (a second, concurrent
 * complete waits and then gets 409 invalid_transition), pick the open drawer session at the
 * location (locked FOR SHARE so a close waits for us), mark sold units, decrement the stock
 * of non-serialized products (atomic `qty_on_hand + delta` in one statement, rows locked in
 * product id order so concurrent sales never deadlock), move a paid repair ticket to
 * picked_up. Four queries for a sale without units: lock + lines, drawer, stock, status.
 */
import {
  BadInputError,
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
} from "../../domain/errors.ts";
import { type ProductType, receiptIncrementsStock } from "../../domain/inventory/products.ts";
import { parseMoney } from "../../domain/pos/money.ts";
import { assertCanComplete } from "../../domain/pos/transaction_status.ts";
import type { Actor } from "../auth/actor.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { setUnitStatus } from "../inventory/stock.ts";
import {
  adjustStockOfProducts,
  type DrawerSessionRecord,
  findOpenSessions,
  type ItemRecord,
  lockTransactionWithLines,
  lockUnits,
  updateTransaction,
} from "./pos_repo.ts";
import { repairTicketPort } from "./repair_ticket_port.ts";
import {
  assertRepairTicketPayable,
  type TransactionJson,
  transactionJson,
} from "./transactions.ts";

/**
 * The open drawer session a sale or refund at `locationId` is recorded in: that of
 * `registerId` when given; else the only one open at the location, or the one of
 * `preferredRegisterId` among several; several and no choice → 400 register_required. None
 * → 409 drawer_not_open. The chosen sessions are locked FOR SHARE.
 */
export async function chooseOpenSession(
  trx: Db,
  locationId: string,
  registerId: string | undefined,
  preferredRegisterId: string | null,
): Promise<DrawerSessionRecord> {
  if (registerId) {
    const [session] = await findOpenSessions(trx, { registerId }, true);
    if (!session) {
      throw new ConflictError("drawer_not_open", `Register "${registerId}" has no open drawer`);
    }
    if (session.locationId !== locationId) {
      throw new InvalidReferenceError(
        "registerId",
        `Register "${registerId}" is not at the transaction's location`,
      );
    }
    return session;
  }
  const sessions = await findOpenSessions(trx, { locationId }, true);
  if (sessions.length === 0) {
    throw new ConflictError("drawer_not_open", "No drawer is open at the transaction's location");
  }
  if (sessions.length === 1) return sessions[0]!;
  const preferred = preferredRegisterId
    ? sessions.find((s) => s.registerId === preferredRegisterId)
    : undefined;
  if (preferred) return preferred;
  throw new BadInputError(
    "register_required",
    "Several drawers are open at this location: give registerId",
    [{ path: "registerId", message: "Required when several drawers are open" }],
  );
}

type StockItem = ItemRecord & { productType: string | null };

/**
 * Applies the stock effect of `items` (`sign` −1 for a sale, +1 for a void or refund):
 * units change status (locked first, in id order; a sale needs them in stock, else 409
 * unit_unavailable), non-serialized products change `qty_on_hand` (in product id order).
 */
export async function applyStock(
  trx: Db,
  items: ReadonlyArray<Pick<StockItem, "productId" | "unitId" | "quantity" | "productType">>,
  sign: -1 | 1,
  now: Date,
): Promise<void> {
  const unitIds = [...new Set(items.flatMap((i) => (i.unitId ? [i.unitId] : [])))].sort();
  if (unitIds.length > 0) {
    const units = await lockUnits(trx, unitIds);
    for (const unit of units) {
      if (sign < 0 && unit.status !== "in_stock") {
        throw new ConflictError(
          "unit_unavailable",
          `Unit "${unit.id}" is no longer in stock (status ${unit.status})`,
        );
      }
    }
    for (const unitId of unitIds) {
      await setUnitStatus(trx, unitId, sign < 0 ? "sold" : "in_stock", now);
    }
  }
  const deltas = new Map<string, number>();
  for (const item of items) {
    if (!item.productId || !item.productType) continue;
    if (!receiptIncrementsStock(item.productType as ProductType)) continue;
    deltas.set(item.productId, (deltas.get(item.productId) ?? 0) + sign * item.quantity);
  }
  await adjustStockOfProducts(
    trx,
    [...deltas.entries()].filter(([, delta]) => delta !== 0)
      .map(([productId, delta]) => ({ productId, delta })),
    now,
  );
}

export async function completeTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { registerId?: string } | undefined,
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const locked = await lockTransactionWithLines(trx, transactionId);
    if (!locked) throw new NotFoundError(`Transaction "${transactionId}" does not exist`);
    const { tx, items, payments } = locked;
    const balanceDueCents = parseMoney(tx.total) - parseMoney(tx.amountPaid);
    // State first (a second complete → invalid_transition), then the drawer, then the balance.
    assertCanComplete({ ...tx, balanceDueCents: 0 });
    const session = await chooseOpenSession(trx, tx.locationId, input?.registerId, tx.registerId);
    assertCanComplete({ ...tx, balanceDueCents });
    const now = deps.clock.now();
    if (tx.type === "repair_payment" && tx.repairTicketId) {
      await assertRepairTicketPayable(trx, tx.repairTicketId);
      await repairTicketPort()!.markPickedUp(trx, tx.repairTicketId, actor.userId);
    }
    await applyStock(trx, items, -1, now);
    const updated = await updateTransaction(trx, tx.id, {
      status: "complete",
      drawerSessionId: session.id,
      registerId: session.registerId,
      completedAt: now,
      completedBy: actor.userId,
    }, now);
    return transactionJson(updated, items, payments);
  });
}
