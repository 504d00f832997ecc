/**
 * Status moves of repair tickets (API §9): `POST /status`, `POST /reopen` and the move a
 * completed repair payment makes (repair_payments.ts). Each locks the ticket, asks the pure
 * state machine (domain/repairs/status_machine.ts), and writes the change with its history
 * row in one statement, so concurrent moves of one ticket run one after the other: exactly
 * one of two identical moves wins, and the history has no gap or duplicate. Entering
 * ready_for_pickup queues the "ready for pickup" email in the same transaction (email module
 * enabled, account with an email address).
 */
import type { Transaction } from "kysely";
import { parseMoney } from "../../domain/money.ts";
import { readyForPickupEmail } from "../../domain/repairs/ready_email.ts";
import {
  nextRepairStatus,
  type RepairAction,
  type RepairStatus,
} from "../../domain/repairs/status_machine.ts";
import { balanceDueCents } from "../../domain/repairs/ticket_money.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import type { Actor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueEmail } from "../email/outbox.ts";
import { findStore } from "../platform/store_repo.ts";
import { changeTicketStatus, listTicketHistory } from "./ticket_history_repo.ts";
import { amountPaidCents, ticketJson } from "./ticket_json.ts";
import { requireLockedTicket, requireTicket } from "./ticket_lookup.ts";
import type { HistoryEntry, TicketJson } from "./ticket_schemas.ts";
import type { TicketRecord } from "./tickets_repo.ts";

type MoveDeps = Pick<AppDeps, "clock" | "ids" | "config" | "logger" | "outboxCipher" | "modules">;

/**
 * Applies `action` to a ticket the caller has locked: the new status with its history row
 * (nothing when the status stays, as a payment of a picked-up ticket leaves it), then the
 * ready-for-pickup email when it enters that status. Returns the new status.
 */
export async function moveTicket(
  deps: MoveDeps,
  trx: Transaction<Database>,
  ticket: TicketRecord,
  action: RepairAction,
  by: string | null,
  note: string | null,
): Promise<RepairStatus> {
  const to = nextRepairStatus(ticket.status, action);
  if (to === ticket.status) return to;
  const now = deps.clock.now();
  await changeTicketStatus(trx, {
    historyId: deps.ids.uuid(),
    ticketId: ticket.id,
    from: ticket.status,
    to,
    version: ticket.statusVersion,
    statusBeforeCancel: to === "cancelled" ? ticket.status : ticket.statusBeforeCancel,
    intakeAt: to === "intake" ? now : null,
    note,
    changedBy: by,
    now,
  });
  if (to === "ready_for_pickup") await queueReadyEmail(deps, trx, ticket);
  return to;
}

async function queueReadyEmail(
  deps: MoveDeps,
  trx: Transaction<Database>,
  ticket: TicketRecord,
): Promise<void> {
  if (!(await deps.modules.isEnabled("email"))) return;
  const account = await findAccount(trx, ticket.accountId);
  if (!account?.email) return;
  const paid = await amountPaidCents(trx, ticket.id);
  const store = await findStore(trx);
  const mail = readyForPickupEmail({
    storeName: store.name,
    storePhone: store.phone,
    accountName: account.name,
    ticketNumber: ticket.ticketNumber,
    itemDescription: ticket.itemDescription,
    itemCount: ticket.itemCount,
    balanceDueCents: balanceDueCents(parseMoney(ticket.customerTotal), paid),
  });
  await enqueueEmail(trx, deps, { to: account.email, ...mail });
}

/** `POST /repair-tickets/:id/status` `{ status, note? }`. */
export async function changeStatus(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { status: RepairStatus; note?: string },
): Promise<TicketJson> {
  return await withTransaction(deps.db, async (trx) => {
    const ticket = await requireLockedTicket(trx, id);
    const action = { type: "move", to: input.status } as const;
    await moveTicket(deps, trx, ticket, action, actor.userId, input.note ?? null);
    return await ticketJson(trx, await requireTicket(trx, id));
  });
}

/** `POST /repair-tickets/:id/reopen`: a cancelled ticket back to its status before. */
export async function reopenTicket(
  deps: AppDeps,
  actor: Actor,
  id: string,
  note: string | undefined,
): Promise<TicketJson> {
  return await withTransaction(deps.db, async (trx) => {
    const ticket = await requireLockedTicket(trx, id);
    const action = { type: "reopen", before: ticket.statusBeforeCancel } as const;
    await moveTicket(deps, trx, ticket, action, actor.userId, note ?? null);
    return await ticketJson(trx, await requireTicket(trx, id));
  });
}

/** `GET /repair-tickets/:id/history`: every status change, oldest first. */
export async function getTicketHistory(
  deps: Pick<AppDeps, "db">,
  id: string,
): Promise<{ data: HistoryEntry[] }> {
  await requireTicket(deps.db, id);
  return { data: await listTicketHistory(deps.db, id) };
}
