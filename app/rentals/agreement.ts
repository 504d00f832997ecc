/**
 * The rental agreement (API §17 `GET /rentals/:id/agreement`): the rental's summary to print
 * and sign, as JSON and as the input of its printable forms (domain/rentals/agreement.ts):
 * the parties (the store and the account, with the student when named), the instrument and
 * its serial, rate, deposit and the rent-to-own terms with the equity accrued so far.
 */
import { parseMoney, parsePercent } from "../../domain/money.ts";
import type { AgreementInput } from "../../domain/rentals/agreement.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { findMember } from "../accounts/members_repo.ts";
import type { AppDeps } from "../deps.ts";
import { printedStore } from "../platform/store.ts";
import { findStore } from "../platform/store_repo.ts";
import { rentalJson } from "./rental_json.ts";
import type { RentalAgreementJson } from "./rental_schemas.ts";
import { requireRental } from "./rentals.ts";

export async function getRentalAgreement(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  id: string,
): Promise<{ json: RentalAgreementJson; printable: AgreementInput }> {
  const rental = await requireRental(deps.db, id);
  const [view, account, member, store] = [
    await rentalJson(deps, deps.db, rental),
    await findAccount(deps.db, rental.accountId),
    rental.memberId ? await findMember(deps.db, rental.memberId) : undefined,
    await findStore(deps.db),
  ];
  const memberName = member ? `${member.firstName} ${member.lastName}`.trim() : null;
  const rentToOwn = view.rentToOwn && view.payoffAmount !== null
    ? { ...view.rentToOwn, equity: view.equity, payoffAmount: view.payoffAmount }
    : null;
  const json: RentalAgreementJson = {
    rentalId: rental.id,
    rentalNumber: rental.rentalNumber,
    status: rental.status,
    store: printedStore(store),
    account: {
      id: rental.accountId,
      accountNumber: account?.accountNumber ?? "",
      name: account?.name ?? rental.accountName,
      email: account?.email ?? null,
      phone: account?.phone ?? null,
      address: account?.address ?? null,
    },
    member: member && memberName ? { id: member.id, name: memberName } : null,
    product: { id: rental.productId, name: rental.productName },
    unit: { id: rental.unitId, serialNumber: rental.serialNumber },
    startDate: rental.startDate,
    dueDate: rental.dueDate,
    billingInterval: rental.billingInterval,
    rate: view.rate,
    deposit: view.deposit,
    rentToOwn,
    createdAt: rental.createdAt,
  };
  const printable: AgreementInput = {
    store: json.store,
    rentalNumber: json.rentalNumber,
    status: json.status,
    account: json.account,
    memberName: json.member?.name ?? null,
    productName: json.product.name,
    serialNumber: json.unit.serialNumber,
    startDate: json.startDate,
    dueDate: json.dueDate,
    billingInterval: json.billingInterval,
    rateCents: parseMoney(json.rate),
    depositCents: json.deposit === null ? null : parseMoney(json.deposit),
    rentToOwn: rentToOwn && {
      purchasePriceCents: parseMoney(rentToOwn.purchasePrice),
      equityPercentBp: parsePercent(rentToOwn.equityPercent),
      equityCents: parseMoney(rentToOwn.equity),
      payoffCents: parseMoney(rentToOwn.payoffAmount),
    },
  };
  return { json, printable };
}
