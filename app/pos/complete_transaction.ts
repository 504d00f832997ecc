/**
 * Completing a sale (API §8) in one database transaction with a bounded number of queries
 * (independent of history size): lock the transaction row FOR UPDATE (a second, concurrent
 * complete waits and then gets 409 invalid_transition), pick the open drawer session at the
 * location (locked FOR SHARE so a close waits for us), mark sold units, decrement the stock
 * of non-serialized products (atomic `qty_on_hand + delta` in one statement, rows locked in
 * product id order so concurrent sales never deadlock), move a paid repair ticket to
 * picked_up. Three queries for a sale without units (plus BEGIN/COMMIT): the row lock; the
 * transaction with its lines, payments and open drawer sessions (read once the lock is held,
 * so nothing committed meanwhile is missed); then stock + status in one statement (a
 * data-modifying CTE).
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
  completeTransactionRow,
  type DrawerSessionRecord,
  findOpenSessions,
  type ItemRecord,
  lockTransactionForCompletion,
  lockTransactionRow,
  lockUnits,
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
  const sessions = await findOpenSessions(trx, registerId ? { registerId } : { locationId }, true);
  return pickOpenSession(sessions, locationId, registerId, preferredRegisterId);
}

/**
 * The choice of {@link chooseOpenSession} among `sessions`: the open (already locked)
 * sessions of `registerId` when given, else those at `locationId`, in `opened_at, id` order.
 */
export function pickOpenSession(
  sessions: readonly DrawerSessionRecord[],
  locationId: string,
  registerId: string | undefined,
  preferredRegisterId: string | null,
): DrawerSessionRecord {
  if (registerId) {
    const [session] = sessions;
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
  await applyUnitStatuses(trx, items, sign, now);
  await adjustStockOfProducts(trx, stockDeltas(items, sign), now);
}

/** The unit half of {@link applyStock}: no query when no line has a unit. */
async function applyUnitStatuses(
  trx: Db,
  items: ReadonlyArray<Pick<StockItem, "unitId">>,
  sign: -1 | 1,
  now: Date,
): Promise<void> {
  const unitIds = [...new Set(items.flatMap((i) => (i.unitId ? [i.unitId] : [])))].sort();
  if (unitIds.length === 0) return;
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

/** The non-zero `qty_on_hand` changes of non-serialized products that `items` make. */
function stockDeltas(
  items: ReadonlyArray<Pick<StockItem, "productId" | "quantity" | "productType">>,
  sign: -1 | 1,
): Array<{ productId: string; delta: number }> {
  const deltas = new Map<string, number>();
  for (const item of items) {
    if (!item.productId || !item.productType) continue;
    if (!receiptIncrementsStock(item.productType as ProductType)) continue;
    deltas.set(item.productId, (deltas.get(item.productId) ?? 0) + sign * item.quantity);
  }
  return [...deltas.entries()].filter(([, delta]) => delta !== 0)
    .map(([productId, delta]) => ({ productId, delta }));
}

export async function completeTransaction(
  deps: AppDeps,
  actor: Actor,
  transactionId: string,
  input: { registerId?: string } | undefined,
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await lockTransactionRow(trx, transactionId))) {
      throw new NotFoundError(`Transaction "${transactionId}" does not exist`);
    }
    const locked = await lockTransactionForCompletion(trx, transactionId, input?.registerId);
    if (!locked) throw new NotFoundError(`Transaction "${transactionId}" does not exist`);
    const { tx, items, payments, sessions } = locked;
    const balanceDueCents = parseMoney(tx.total) - parseMoney(tx.amountPaid);
    // State first (a second complete → invalid_transition), then the drawer, then the balance.
    assertCanComplete({ ...tx, balanceDueCents: 0 });
    const session = pickOpenSession(sessions, tx.locationId, input?.registerId, tx.registerId);
    assertCanComplete({ ...tx, balanceDueCents });
    const now = deps.clock.now();
    if (tx.type === "repair_payment" && tx.repairTicketId) {
      await assertRepairTicketPayable(trx, tx.repairTicketId);
      await repairTicketPort()!.markPickedUp(trx, tx.repairTicketId, actor.userId);
    }
    await applyUnitStatuses(trx, items, -1, now);
    const updated = await completeTransactionRow(
      trx,
      tx.id,
      {
        drawerSessionId: session.id,
        registerId: session.registerId,
        completedBy: actor.userId,
      },
      stockDeltas(items, -1),
      now,
    );
    return transactionJson(updated, items, payments);
  });
}
