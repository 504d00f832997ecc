// deno-lint-ignore-file no-explicit-any
/**
 * Repairs test fixtures: the users of a repair bench (and of its register), factories over
 * the HTTP API (accounts, products, tickets, lines) and a store with an open drawer.
 */
import { suiteOf, usersWith } from "../_helpers/suite.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { call, payAndCompleteAs, storeWithOpenDrawer } from "../_helpers/calls.ts";

export { call };

export const repairUsers = usersWith({
  /** A technician: repairs.edit (so also repairs.view) and files.upload. */
  tech: ["repairs.edit", "files.upload"],
  tech2: ["repairs.edit"],
  viewer: ["repairs.view"],
  approver: ["repairs.approve"],
  admin: ["repairs.admin"],
  nobody: [],
  front: ["accounts.edit"],
  stock: ["inventory.admin"],
  cashier: ["pos.edit", "pos.admin"],
  settings: ["settings.admin"],
});

export type RepairUsers = Awaited<ReturnType<typeof repairUsers>>;

/** One app (own database) for the test file with the repair users: `repairsSuite((s) => ...)`. */
export const repairsSuite = suiteOf(repairUsers);

let counter = 0;

/** A unique suffix for names. */
export function nextN(): number {
  return ++counter;
}

export async function makeAccount(
  t: TestApp,
  u: RepairUsers,
  body: Record<string, unknown> = {},
): Promise<any> {
  return await call(t, u.front, "POST", "/v1/accounts", {
    name: `Repair Customer ${nextN()}`,
    ...body,
  });
}

export async function makeProduct(
  t: TestApp,
  u: RepairUsers,
  body: Record<string, unknown> = {},
): Promise<any> {
  const n = nextN();
  return await call(t, u.stock, "POST", "/v1/products", {
    name: `Part ${n}`,
    sku: `RP-${n}-${crypto.randomUUID().slice(0, 8)}`,
    price: "10.00",
    ...body,
  });
}

export async function makeTicket(
  t: TestApp,
  u: RepairUsers,
  body: Record<string, unknown> = {},
): Promise<any> {
  const accountId = body.accountId ?? (await makeAccount(t, u)).id;
  return await call(t, u.tech, "POST", "/v1/repair-tickets", {
    itemDescription: "Violin, 4/4, cracked top",
    ...body,
    accountId,
  });
}

export async function addLine(
  t: TestApp,
  u: RepairUsers,
  ticketId: string,
  body: Record<string, unknown>,
): Promise<any> {
  return await call(t, u.tech, "POST", `/v1/repair-tickets/${ticketId}/line-items`, body);
}

export async function move(
  t: TestApp,
  u: RepairUsers,
  ticketId: string,
  status: string,
  expected = 200,
): Promise<any> {
  return await call(
    t,
    u.tech,
    "POST",
    `/v1/repair-tickets/${ticketId}/status`,
    { status },
    expected,
  );
}

/** Moves a ticket along `statuses` in order. */
export async function walk(
  t: TestApp,
  u: RepairUsers,
  ticketId: string,
  ...statuses: string[]
): Promise<any> {
  let ticket;
  for (const status of statuses) ticket = await move(t, u, ticketId, status);
  return ticket;
}

export async function getTicket(t: TestApp, u: RepairUsers, id: string): Promise<any> {
  return await call(t, u.viewer, "GET", `/v1/repair-tickets/${id}`);
}

/** A new location with one register whose drawer is open. */
export function storeWithDrawer(t: TestApp, u: RepairUsers) {
  return storeWithOpenDrawer(t, u.cashier, "Repair");
}

/** Starts a repair_payment for the ticket (its lines from the ticket unless `items`). */
export async function startPayment(
  t: TestApp,
  u: RepairUsers,
  locationId: string,
  ticketId: string,
  extra: Record<string, unknown> = {},
  expected = 201,
): Promise<any> {
  return await call(t, u.cashier, "POST", "/v1/transactions", {
    locationId,
    type: "repair_payment",
    repairTicketId: ticketId,
    ...extra,
  }, expected);
}

/** Pays the transaction's whole balance by card and completes it (status as expected). */
export function payAndComplete(t: TestApp, u: RepairUsers, tx: any, expected = 200): Promise<any> {
  return payAndCompleteAs(t, u.cashier, tx, expected);
}
