/**
 * Use cases of rentals (API §13): get-or-404, lists, create (takes an in-stock unit of the
 * product: of two rentals of one unit exactly one gets it), update, return, cancel and soft
 * delete. Charges: charges.ts; buyouts: buyout.ts; payment at the POS: rental_payments.ts.
 */
import type { Transaction } from "kysely";
import {
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import {
  assertCanDelete,
  assertCanMove,
  pastDueCutoff,
} from "../../domain/rentals/rental_status.ts";
import { lockAccount } from "../accounts/accounts_repo.ts";
import { lockMember } from "../accounts/members_repo.ts";
import type { NameCopies } from "../accounts/name_copies.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Database, Db } from "../db/database.ts";
import type { Page } from "../db/pagination.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { setUnitState, setUnitStatus, takeUnitFromStock } from "../inventory/stock.ts";
import { findProduct } from "../inventory/products_repo.ts";
import { findUnit } from "../inventory/units_repo.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import { storeToday } from "../platform/store.ts";
import { rentalJson, rentalsJson } from "./rental_json.ts";
import type {
  CreateRentalInput,
  RentalJson,
  RentalListParams,
  ReturnRentalInput,
  UpdateRentalInput,
} from "./rental_schemas.ts";
import {
  findRental,
  insertRental,
  listRentals,
  lockRental,
  refreshRentalSearch,
  type RentalRecord,
  type RentalView,
  setRentalStatus,
  softDeleteRental,
  updateRentalRow,
} from "./rentals_repo.ts";

export function rentalNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Rental "${id}" does not exist`);
}

/** The live rental (with its names), or 404. */
export async function requireRental(db: Db, id: string): Promise<RentalView> {
  const rental = await findRental(db, id);
  if (!rental) throw rentalNotFound(id);
  return rental;
}

/** The live rental with its row locked FOR UPDATE until the caller commits, or 404. */
export async function requireLockedRental(
  trx: Transaction<Database>,
  id: string,
): Promise<RentalRecord> {
  const rental = await lockRental(trx, id);
  if (!rental) throw rentalNotFound(id);
  return rental;
}

export async function getRental(deps: AppDeps, id: string): Promise<RentalJson> {
  return await rentalJson(deps, deps.db, await requireRental(deps.db, id));
}

/** A page of rentals with their money figures (three queries whatever the page size). */
export async function listRentalsJson(
  deps: AppDeps,
  params: RentalListParams,
): Promise<Page<RentalJson>> {
  const { overdue, pastDue, ...rest } = params;
  const filters: Parameters<typeof listRentals>[1] = { ...rest };
  // Store-local today, read once for the filters and the rows' isOverdue.
  const today = await storeToday(deps);
  if (overdue) filters.overdueBefore = today;
  if (pastDue) {
    filters.pastDueBefore = pastDueCutoff(today, (await currentConfig(deps)).rentalGraceDays);
  }
  const page = await listRentals(deps.db, filters);
  return { data: await rentalsJson(deps, deps.db, page.data, today), pagination: page.pagination };
}

/**
 * The member, when named, belongs to the account; locked (`lockMember`) until the caller
 * commits, so its name cannot change before the rental's copy of it does (name_copies.ts).
 */
async function lockAccountMember(
  trx: Transaction<Database>,
  accountId: string,
  memberId: string | null,
): Promise<void> {
  if (memberId !== null && (await lockMember(trx, memberId))?.accountId !== accountId) {
    throw new InvalidReferenceError(
      "memberId",
      `Member "${memberId}" is not a member of account "${accountId}"`,
    );
  }
}

/** The rentals' copies of account and member names (app/accounts/name_copies.ts). */
export const rentalNameCopies: NameCopies = {
  accountsRenamed: (trx, accountIds) => refreshRentalSearch(trx, "account_id", accountIds),
  membersRenamed: (trx, memberIds) => refreshRentalSearch(trx, "member_id", memberIds),
};

export async function createRental(
  deps: AppDeps,
  actor: Actor,
  input: CreateRentalInput,
): Promise<RentalJson> {
  return await withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    // The account and member locked before the rental copies their names (name_copies.ts).
    if (!(await lockAccount(trx, input.accountId))) {
      throw new InvalidReferenceError("accountId", `Account "${input.accountId}" does not exist`);
    }
    await lockAccountMember(trx, input.accountId, input.memberId ?? null);
    const product = await findProduct(trx, input.productId);
    if (!product) {
      throw new InvalidReferenceError("productId", `Product "${input.productId}" does not exist`);
    }
    if (input.dueDate && input.dueDate < input.startDate) {
      throw new ValidationError([{ path: "dueDate", message: "Must not be before startDate" }]);
    }
    // The check and the change are one statement: of two rentals of one unit, one gets it.
    const taken = await takeUnitFromStock(trx, input.unitId, input.productId, "rented", now, {
      actorId: actor.userId,
      source: "rental",
    });
    if (!taken) {
      // Named for people: the serial number (when the unit exists) and the product's name.
      const unit = await findUnit(trx, input.unitId);
      const status = unit && unit.productId === product.id ? ` (status ${unit.status})` : "";
      throw new ConflictError(
        "unit_unavailable",
        `Unit ${unit?.serialNumber ?? `"${input.unitId}"`} is not an in-stock unit of ` +
          `${product.name}${status}`,
      );
    }
    const id = deps.ids.uuid();
    await insertRental(trx, {
      id,
      accountId: input.accountId,
      memberId: input.memberId ?? null,
      productId: input.productId,
      unitId: input.unitId,
      startDate: input.startDate,
      dueDate: input.dueDate ?? null,
      billingInterval: input.billingInterval,
      rate: input.rate,
      deposit: input.deposit ?? null,
      rentToOwnPrice: input.rentToOwn?.purchasePrice ?? null,
      rentToOwnPercent: input.rentToOwn?.equityPercent ?? null,
      notes: input.notes ?? null,
      createdBy: actor.userId,
      now,
    });
    const rental = await requireRental(trx, id);
    await audit(deps, trx, actor, {
      action: "rental.created",
      entityType: "rental",
      entityId: id,
      details: {
        rentalNumber: rental.rentalNumber,
        accountId: input.accountId,
        unitId: input.unitId,
        rate: input.rate,
        rentToOwn: input.rentToOwn ?? null,
      },
    });
    return await rentalJson(deps, trx, rental);
  });
}

export async function updateRental(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: UpdateRentalInput,
): Promise<RentalJson> {
  return await withTransaction(deps.db, async (trx) => {
    const rental = await requireLockedRental(trx, id);
    const memberChanged = input.memberId !== undefined && input.memberId !== rental.memberId;
    if (memberChanged) await lockAccountMember(trx, rental.accountId, input.memberId ?? null);
    if (input.dueDate && input.dueDate < rental.startDate) {
      throw new ValidationError([{ path: "dueDate", message: "Must not be before startDate" }]);
    }
    await updateRentalRow(trx, id, input, deps.clock.now());
    if (memberChanged) await refreshRentalSearch(trx, "id", [id]);
    if (input.rate !== undefined && input.rate !== rental.rate) {
      await audit(deps, trx, actor, {
        action: "rental.rate_changed",
        entityType: "rental",
        entityId: id,
        details: { rentalNumber: rental.rentalNumber, from: rental.rate, to: input.rate },
      });
    }
    return await rentalJson(deps, trx, await requireRental(trx, id));
  });
}

/** Returned with a condition: the unit is back in stock, or in repair with `toRepair`. */
export async function returnRental(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: ReturnRentalInput,
): Promise<RentalJson> {
  return await withTransaction(deps.db, async (trx) => {
    const rental = await requireLockedRental(trx, id);
    assertCanMove(rental, "return");
    const now = deps.clock.now();
    const status = input.toRepair ? "in_repair" : "in_stock";
    await setUnitState(trx, rental.unitId, { status, condition: input.condition }, now, {
      actorId: actor.userId,
      source: "return",
    });
    await setRentalStatus(trx, id, {
      status: "returned",
      condition: input.condition,
      notes: input.notes ?? null,
      by: actor.userId,
    }, now);
    await audit(deps, trx, actor, {
      action: "rental.returned",
      entityType: "rental",
      entityId: id,
      details: {
        rentalNumber: rental.rentalNumber,
        condition: input.condition,
        unitStatus: status,
      },
    });
    return await rentalJson(deps, trx, await requireRental(trx, id));
  });
}

/** An active rental cancelled: the unit is back in stock; its charges stay as they are. */
export async function cancelRental(deps: AppDeps, actor: Actor, id: string): Promise<RentalJson> {
  return await withTransaction(deps.db, async (trx) => {
    const rental = await requireLockedRental(trx, id);
    assertCanMove(rental, "cancel");
    const now = deps.clock.now();
    await setUnitStatus(trx, rental.unitId, "in_stock", now, {
      actorId: actor.userId,
      source: "cancel",
    });
    await setRentalStatus(trx, id, { status: "cancelled", by: actor.userId }, now);
    await audit(deps, trx, actor, {
      action: "rental.cancelled",
      entityType: "rental",
      entityId: id,
      details: { rentalNumber: rental.rentalNumber },
    });
    return await rentalJson(deps, trx, await requireRental(trx, id));
  });
}

/** Soft delete (rentals.admin) of a rental that no longer holds its unit. */
export async function deleteRental(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const rental = await requireLockedRental(trx, id);
    assertCanDelete(rental);
    if (!(await softDeleteRental(trx, id, deps.clock.now()))) throw rentalNotFound(id);
    await audit(deps, trx, actor, {
      action: "rental.deleted",
      entityType: "rental",
      entityId: id,
      details: { rentalNumber: rental.rentalNumber },
    });
  });
}
