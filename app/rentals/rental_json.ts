/**
 * Rentals as the API shows them (API §13): the view (row, names, charge totals) with
 * `isOverdue` (store-local today) and the money its charges add up to (`balanceDue`,
 * `equity`, `payoffAmount`). No query beyond the store's today (cached per process), unless
 * the caller read it already.
 */
import { formatMoney, formatPercent, parseMoney, parsePercent } from "../../domain/money.ts";
import { payoffOf, type RentToOwnTerms } from "../../domain/rentals/rental_money.ts";
import { isOverdue } from "../../domain/rentals/rental_status.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { storeToday } from "../platform/store.ts";
import type { RentalJson } from "./rental_schemas.ts";
import type { RentalRecord, RentalView } from "./rentals_repo.ts";

/** The rent-to-own terms of a rental in cents and basis points (null when it has none). */
export function rentToOwnTerms(
  rental: Pick<RentalRecord, "rentToOwnPrice" | "rentToOwnPercent">,
): RentToOwnTerms | null {
  if (rental.rentToOwnPrice === null || rental.rentToOwnPercent === null) return null;
  return {
    purchasePriceCents: parseMoney(rental.rentToOwnPrice),
    equityPercentBp: parsePercent(rental.rentToOwnPercent),
  };
}

export function rentalJsonOf(rental: RentalView, today: string): RentalJson {
  const terms = rentToOwnTerms(rental);
  const totals = rental.chargeTotals;
  const equityCents = parseMoney(totals.equity);
  return {
    id: rental.id,
    rentalNumber: rental.rentalNumber,
    accountId: rental.accountId,
    accountName: rental.accountName,
    memberId: rental.memberId,
    productId: rental.productId,
    productName: rental.productName,
    unitId: rental.unitId,
    serialNumber: rental.serialNumber,
    startDate: rental.startDate,
    dueDate: rental.dueDate,
    billingInterval: rental.billingInterval,
    rate: rental.rate,
    deposit: rental.deposit,
    rentToOwn: terms && {
      purchasePrice: formatMoney(terms.purchasePriceCents),
      equityPercent: formatPercent(terms.equityPercentBp),
    },
    status: rental.status,
    isOverdue: isOverdue(rental, today),
    balanceDue: formatMoney(parseMoney(totals.unpaid)),
    equity: formatMoney(equityCents),
    payoffAmount: terms ? formatMoney(payoffOf(terms, equityCents)) : null,
    notes: rental.notes,
    returnCondition: rental.returnCondition,
    returnNotes: rental.returnNotes,
    returnedAt: rental.returnedAt,
    cancelledAt: rental.cancelledAt,
    purchasedAt: rental.purchasedAt,
    purchaseTransactionId: rental.purchaseTransactionId,
    createdBy: rental.createdBy,
    createdAt: rental.createdAt,
    updatedAt: rental.updatedAt,
  };
}

export async function rentalsJson(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  db: Db,
  rentals: readonly RentalView[],
  knownToday?: string,
): Promise<RentalJson[]> {
  if (rentals.length === 0) return [];
  const today = knownToday ?? await storeToday(deps, db);
  return rentals.map((r) => rentalJsonOf(r, today));
}

export async function rentalJson(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  db: Db,
  rental: RentalView,
): Promise<RentalJson> {
  return (await rentalsJson(deps, db, [rental]))[0]!;
}
