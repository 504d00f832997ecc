/**
 * Transactions (API §8): get-or-404, reading and listing, and starting one with its first
 * lines. Line edits, the discount, payments, completion, voids and refunds have their own
 * files; each locks the transaction row FOR UPDATE first (`requireLockedTransaction`).
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import {
  assertItemsGiven,
  assertRentalChargeReference,
  assertRepairTicketPayable,
  assertRepairTicketReference,
  type SaleLine,
} from "../../domain/pos/sale_rules.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { actingUserId, type Actor } from "../actor.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import type { RuntimeConfig } from "../platform/platform_schemas.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import type { ListParams } from "../schemas.ts";
import { timeRange } from "./time_range.ts";
import { findItems, insertItems } from "./items_repo.ts";
import { findPayments } from "./payments_repo.ts";
import type { CreateTransactionInput } from "./pos_schemas.ts";
import { pricingContext, totalsColumns, totalsOf } from "./pricing.ts";
import { findRegister } from "./registers_repo.ts";
import { rentalPaymentInputs } from "./rental_payment_lines.ts";
import type { RepairTicketPort } from "./repair_ticket_port.ts";
import { newItemRows, resolveLines } from "./sale_lines.ts";
import { type Approver, withApproval } from "./overrides.ts";
import {
  approvalColumns,
  auditPriceReductions,
  auditShareApproval,
  grantedShare,
  NEW_SALE,
  NO_PRICE_REVIEW,
  type PriceReview,
  reviewLinePrices,
} from "./price_approval.ts";
import {
  type TransactionJson,
  transactionJson,
  transactionSummaryJson,
} from "./transaction_json.ts";
import {
  findTransaction,
  insertTransaction,
  listTransactions as listTransactionRows,
  lockTransaction,
  type TransactionFilters,
  type TransactionRecord,
} from "./transactions_repo.ts";

export function transactionNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Transaction "${id}" does not exist`);
}

/** The transaction, or 404. */
export async function requireTransaction(db: Db, id: string): Promise<TransactionRecord> {
  const tx = await findTransaction(db, id);
  if (!tx) throw transactionNotFound(id);
  return tx;
}

/** {@link requireTransaction} with the row locked FOR UPDATE until the caller commits. */
export async function requireLockedTransaction(
  trx: Transaction<Database>,
  id: string,
): Promise<TransactionRecord> {
  const tx = await lockTransaction(trx, id);
  if (!tx) throw transactionNotFound(id);
  return tx;
}

/** The transaction with its items and payments (three queries). */
export async function getTransaction(db: Db, id: string): Promise<TransactionJson> {
  const tx = await requireTransaction(db, id);
  return transactionJson(tx, await findItems(db, tx.id), await findPayments(db, tx.id));
}

export async function listTransactions(
  deps: Pick<AppDeps, "db">,
  params: ListParams & Omit<TransactionFilters, "fromAt" | "toAt"> & { from?: string; to?: string },
) {
  const range = await timeRange(deps.db, params.from, params.to);
  const page = await listTransactionRows(deps.db, { ...params, ...range });
  return { data: page.data.map(transactionSummaryJson), pagination: page.pagination };
}

const itemPath = (i: number, f: string) => `items[${i}].${f}`;

/** A line that names a product (or unit) and sets its own price may be priced below it. */
function mayBeReduced(item: NonNullable<CreateTransactionInput["items"]>[number]): boolean {
  return item.unitPrice !== undefined &&
    (item.productId !== undefined || item.unitId !== undefined);
}

/** The catalogue-price review of new lines (price_approval.ts); none when none sets a price. */
async function reviewNewLines(
  db: Db,
  config: RuntimeConfig,
  input: CreateTransactionInput,
  lines?: readonly SaleLine[],
): Promise<PriceReview> {
  if (!input.items?.some(mayBeReduced)) return NO_PRICE_REVIEW;
  const resolved = lines ?? await resolveLines(db, input.items ?? [], itemPath);
  return await reviewLinePrices(db, config, NEW_SALE, [], resolved);
}

/**
 * Starts a sale. A line priced below its product's price is a discount (API §8): above the
 * threshold it needs `override`, and it is audited as `pos.price_override`.
 */
export async function createTransaction(
  deps: AppDeps,
  actor: Actor,
  input: CreateTransactionInput,
): Promise<TransactionJson> {
  assertRepairTicketReference(input.type, input.repairTicketId);
  assertRentalChargeReference(input.type, input.rentalChargeIds);
  assertItemsGiven(input.type, input.items);
  const config = await currentConfig(deps);
  return await withApproval(
    deps,
    actor,
    "discount",
    config.managerOverride,
    input.override,
    async () => (await reviewNewLines(deps.db, config, input)).needed,
    (approval) => insertSale(deps, actor, input, config, approval),
  );
}

async function insertSale(
  deps: AppDeps,
  actor: Actor,
  input: CreateTransactionInput,
  config: RuntimeConfig,
  approval: (needed: boolean) => Approver | null,
): Promise<TransactionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    if (!(await findLocation(trx, input.locationId))) {
      throw new InvalidReferenceError(
        "locationId",
        `Location "${input.locationId}" does not exist`,
      );
    }
    if (input.registerId) {
      const register = await findRegister(trx, input.registerId);
      if (!register || register.locationId !== input.locationId) {
        throw new InvalidReferenceError(
          "registerId",
          `Register "${input.registerId}" does not exist at this location`,
        );
      }
    }
    if (input.accountId && !(await findAccount(trx, input.accountId))) {
      throw new InvalidReferenceError("accountId", `Account "${input.accountId}" does not exist`);
    }
    // A repair is billed to its ticket's account unless the cashier names another (so a
    // tax-exempt school's repair is not taxed because the account was left out).
    let accountId = input.accountId ?? null;
    if (input.type === "repair_payment") {
      await checkRepairTicketPayable(deps, trx, input.repairTicketId!);
      accountId ??= await repairTicketPort(deps).findTicketAccountId(trx, input.repairTicketId!) ??
        null;
    }
    // A rental_payment pays charges (one line each), billed to their rental's account.
    const rental = input.type === "rental_payment"
      ? await rentalPaymentInputs(deps, trx, input.rentalChargeIds!)
      : undefined;
    if (rental) accountId ??= rental.accountId;
    // A repair_payment without items takes its ticket's lines (the repairs feature's rule).
    const inputs = rental?.inputs ?? input.items ??
      await repairTicketPort(deps).paymentLines(trx, input.repairTicketId!);
    const lines = await resolveLines(trx, inputs, itemPath);
    const review = await reviewNewLines(trx, config, input, lines);
    const approver = approval(review.needed);
    const granted = grantedShare(review, approver);
    const context = await pricingContext(trx, accountId, now);
    const totals = totalsOf(lines, null, context);
    const tx = await insertTransaction(trx, {
      id: deps.ids.uuid(),
      type: input.type,
      status: "pending",
      locationId: input.locationId,
      registerId: input.registerId ?? null,
      accountId,
      repairTicketId: input.repairTicketId ?? null,
      taxExempt: context.taxExempt,
      taxExemptCertificate: context.taxExemptCertificate,
      createdBy: actingUserId(actor),
      totals: totalsColumns(totals),
      discountApproval: granted && approvalColumns(granted.share, granted.approver),
      now,
    });
    const items = await insertItems(
      trx,
      newItemRows(deps, tx.id, lines, totals, 0, now)
        .map((row, i) => ({ ...row, rentalChargeId: rental?.chargeIds[i] ?? null })),
    );
    await auditPriceReductions(deps, trx, actor, tx.id, items, review, approver);
    if (granted) await auditShareApproval(deps, trx, actor, tx, { change: "created", ...granted });
    return transactionJson(tx, items, []);
  });
}

/**
 * A repair_payment needs the repairs feature (its port in `deps.repairTickets`; without it
 * 400 invalid_reference) and a ticket that exists and is not cancelled.
 */
export async function checkRepairTicketPayable(
  deps: Pick<AppDeps, "repairTickets">,
  trx: Db,
  ticketId: string,
): Promise<void> {
  assertRepairTicketPayable(ticketId, await repairTicketPort(deps).findTicketStatus(trx, ticketId));
}

/** The repairs feature's port, or 400 invalid_reference when no repairs feature provides it. */
export function repairTicketPort(deps: Pick<AppDeps, "repairTickets">): RepairTicketPort {
  if (!deps.repairTickets) {
    throw new InvalidReferenceError("repairTicketId", "Repair tickets are not available");
  }
  return deps.repairTickets;
}
