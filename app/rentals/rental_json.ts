/**
 * Rentals as the API shows them (API §13): the row with its names, `isOverdue` (store-local
 * today) and the money its charges add up to (`balanceDue`, `equity`, `payoffAmount`). Two
 * queries for any number of rentals: the charge totals of all of them, and the store's today
 * (unless the caller read it already).
 */
import { formatMoney, formatPercent, parseMoney, parsePercent } from "../../domain/money.ts";
import { payoffOf, type RentToOwnTerms } from "../../domain/rentals/rental_money.ts";
import { isOverdue } from "../../domain/rentals/rental_status.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { storeToday } from "../platform/store.ts";
import { type ChargeTotals, findChargeTotals } from "./charges_repo.ts";
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

const NO_CHARGES: ChargeTotals = { unpaid: "0", equity: "0" };

export function rentalJsonOf(rental: RentalView, totals: ChargeTotals, today: string): RentalJson {
  const terms = rentToOwnTerms(rental);
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
  const totals = await findChargeTotals(db, rentals.map((r) => r.id));
  const today = knownToday ?? await storeToday(deps, db);
  return rentals.map((r) => rentalJsonOf(r, totals.get(r.id) ?? NO_CHARGES, today));
}

export async function rentalJson(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  db: Db,
  rental: RentalView,
): Promise<RentalJson> {
  return (await rentalsJson(deps, db, [rental]))[0]!;
}
