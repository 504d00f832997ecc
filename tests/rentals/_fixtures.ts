// deno-lint-ignore-file no-explicit-any
/**
 * Rentals test fixtures: the users of a rental counter (and of its register), factories over
 * the HTTP API (accounts with a member, a rental product with in-stock units, rentals) and a
 * store with an open drawer.
 */
import { addDays } from "../../domain/calendar.ts";
import { storeToday } from "../../app/platform/store.ts";
import { suiteOf, usersWith } from "../_helpers/suite.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { call, payAndCompleteAs, storeWithOpenDrawer } from "../_helpers/calls.ts";

export { call };

export const rentalUsers = usersWith({
  /** The rental desk: rentals.edit (so also rentals.view). */
  desk: ["rentals.edit"],
  viewer: ["rentals.view"],
  admin: ["rentals.admin"],
  nobody: [],
  front: ["accounts.edit"],
  stock: ["inventory.admin"],
  cashier: ["pos.edit", "pos.admin", "pos.override"],
  repairs: ["repairs.edit"],
  settings: ["settings.admin"],
});

export type RentalUsers = Awaited<ReturnType<typeof rentalUsers>>;

/** One app (own database) for the test file with the rental users. */
export const rentalsSuite = suiteOf(rentalUsers);

let counter = 0;

export function nextN(): number {
  return ++counter;
}

/** Store-local today, and a date `days` from it. */
export async function today(t: TestApp, days = 0): Promise<string> {
  return addDays(await storeToday(t.deps), days);
}

/** An account with one member (the student). */
export async function makeFamily(t: TestApp, u: RentalUsers, name?: string) {
  const n = nextN();
  const account = await call(t, u.front, "POST", "/v1/accounts", {
    name: name ?? `Rental Family ${n}`,
    email: `family${n}@example.test`,
  });
  const member = await call(t, u.front, "POST", `/v1/accounts/${account.id}/members`, {
    firstName: "Stu",
    lastName: `Dent ${n}`,
  });
  return { account, member };
}

/** A rental product with `units` in-stock units (serials `<prefix>-1`, ...). */
export async function makeInstrument(t: TestApp, u: RentalUsers, units = 1, prefix?: string) {
  const n = nextN();
  const product = await call(t, u.stock, "POST", "/v1/products", {
    name: `Student Trumpet ${n}`,
    sku: `TR-${n}-${crypto.randomUUID().slice(0, 8)}`,
    price: "600.00",
    type: "rental",
  });
  const serial = prefix ?? `TRP${n}X${crypto.randomUUID().slice(0, 6)}`;
  const made = [];
  for (let i = 1; i <= units; i++) {
    made.push(
      await call(t, u.stock, "POST", `/v1/products/${product.id}/units`, {
        serialNumber: `${serial}-${i}`,
      }),
    );
  }
  return { product, units: made };
}

/** A rental of a fresh instrument to a fresh family (`body` overrides). */
export async function makeRental(
  t: TestApp,
  u: RentalUsers,
  body: Record<string, unknown> = {},
): Promise<any> {
  const family = body.accountId ? undefined : await makeFamily(t, u);
  const instrument = body.unitId ? undefined : await makeInstrument(t, u);
  return await call(t, u.desk, "POST", "/v1/rentals", {
    accountId: family?.account.id,
    memberId: family?.member.id,
    productId: instrument?.product.id,
    unitId: instrument?.units[0].id,
    startDate: await today(t),
    billingInterval: "monthly",
    rate: "40.00",
    ...body,
  });
}

/** A new location with one register whose drawer is open. */
export function storeWithDrawer(t: TestApp, u: RentalUsers) {
  return storeWithOpenDrawer(t, u.cashier, "Rental");
}

/** A rental's charges. */
export async function chargesOf(t: TestApp, u: RentalUsers, rentalId: string): Promise<any[]> {
  return (await call(t, u.viewer, "GET", `/v1/rentals/${rentalId}/charges`)).data;
}

/** Pays the transaction's whole balance by card and completes it (status as expected). */
export function payAndComplete(t: TestApp, u: RentalUsers, tx: any, expected = 200): Promise<any> {
  return payAndCompleteAs(t, u.cashier, tx, expected);
}

/** A rental_payment of `chargeIds` at `locationId` (pending). */
export async function startRentalPayment(
  t: TestApp,
  u: RentalUsers,
  locationId: string,
  chargeIds: string[],
  expected = 201,
): Promise<any> {
  return await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId,
    type: "rental_payment",
    rentalChargeIds: chargeIds,
  }, expected);
}

/**
 * Rentals whose `unpaid_since` differs from their oldest unpaid charge's due date (it should be
 * none: charges_repo.ts keeps it in every write of a charge).
 */
export async function staleUnpaidSince(t: TestApp, rentalIds: string[]): Promise<string[]> {
  if (rentalIds.length === 0) return [];
  const rows = await t.deps.db.selectFrom("rentals as r").select("r.id")
    .where("r.id", "in", rentalIds)
    .where(({ eb, selectFrom }) =>
      eb(
        "r.unpaid_since",
        "is distinct from",
        selectFrom("rental_charges as c").select((c) => c.fn.min("c.due_date").as("oldest"))
          .whereRef("c.rental_id", "=", "r.id").where("c.status", "=", "unpaid"),
      )
    ).execute();
  return rows.map((r) => r.id);
}
