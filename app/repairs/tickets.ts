/**
 * Use cases of repair tickets (API §9): get-or-404, lists, create (from a service template:
 * its default line items are copied), update, soft delete. Joining or leaving a batch locks
 * the batch and needs it to be a draft. Status moves: ticket_status.ts.
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError } from "../../domain/errors.ts";
import { assertBatchTakesTickets } from "../../domain/repairs/batch_status.ts";
import { formatTicketNumber } from "../../domain/repairs/ticket_money.ts";
import { findAccount } from "../accounts/accounts_repo.ts";
import { findMemberAccountId } from "../accounts/members_repo.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import type { ListParams } from "../schemas.ts";
import { lockBatch } from "./batches_repo.ts";
import { addTemplateLines } from "./line_items.ts";
import { ticketJson, ticketsJson } from "./ticket_json.ts";
import type { CreateTicketInput, TicketJson, UpdateTicketInput } from "./ticket_schemas.ts";
import { findTemplate } from "./templates_repo.ts";
import { requireLockedTicket, requireTicket, ticketNotFound } from "./ticket_lookup.ts";
import {
  insertTicket,
  listTickets,
  nextTicketNumberValue,
  softDeleteTicket,
  type TicketFilters,
  updateTicketRow,
} from "./tickets_repo.ts";

export async function getTicket(deps: Pick<AppDeps, "db">, id: string): Promise<TicketJson> {
  return await ticketJson(deps.db, await requireTicket(deps.db, id));
}

/**
 * A page of tickets with their money figures: one statement whatever the page size (plus the
 * config read when a ticket of the page has an estimate).
 */
export async function listTicketsJson(
  deps: Pick<AppDeps, "db">,
  params: ListParams & TicketFilters,
) {
  const page = await listTickets(deps.db, params);
  return { data: await ticketsJson(deps.db, page.data), pagination: page.pagination };
}

/** Every ticket in ready_for_pickup (paginated), each with its balance due. */
export function listReadyForPickup(
  deps: Pick<AppDeps, "db">,
  params: ListParams & Omit<TicketFilters, "status">,
) {
  return listTicketsJson(deps, { ...params, status: "ready_for_pickup" });
}

/** The account exists; the member, when named, belongs to it; the location exists. */
async function checkReferences(
  db: Db,
  refs: { accountId: string; memberId: string | null; locationId: string | null },
  changed: { account: boolean; member: boolean; location: boolean },
): Promise<void> {
  if (changed.account && !(await findAccount(db, refs.accountId))) {
    throw new InvalidReferenceError("accountId", `Account "${refs.accountId}" does not exist`);
  }
  if (refs.memberId !== null && (changed.member || changed.account)) {
    if ((await findMemberAccountId(db, refs.memberId)) !== refs.accountId) {
      throw new InvalidReferenceError(
        "memberId",
        `Member "${refs.memberId}" is not a member of account "${refs.accountId}"`,
      );
    }
  }
  if (changed.location && refs.locationId !== null && !(await findLocation(db, refs.locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${refs.locationId}" does not exist`);
  }
}

/**
 * A ticket moves from batch `from` to batch `to` (either may be null): both are locked (in id
 * order) and must be drafts; an unknown `to` → 400 invalid_reference.
 */
async function checkBatchMove(
  trx: Transaction<Database>,
  from: string | null,
  to: string | null,
): Promise<void> {
  if (from === to) return;
  for (const id of [from, to].filter((x): x is string => x !== null).sort()) {
    const batch = await lockBatch(trx, id);
    if (!batch) {
      if (id === to) throw new InvalidReferenceError("batchId", `Batch "${id}" does not exist`);
      continue; // the batch it leaves was deleted: nothing to protect
    }
    assertBatchTakesTickets(batch);
  }
}

export async function createTicket(
  deps: AppDeps,
  actor: Actor,
  input: CreateTicketInput,
): Promise<TicketJson> {
  return await withTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const refs = {
      accountId: input.accountId,
      memberId: input.memberId ?? null,
      locationId: input.locationId ?? null,
    };
    await checkReferences(trx, refs, { account: true, member: true, location: true });
    await checkBatchMove(trx, null, input.batchId ?? null);
    const template = input.serviceTemplateId
      ? await findTemplate(trx, input.serviceTemplateId)
      : undefined;
    if (input.serviceTemplateId && !template) {
      throw new InvalidReferenceError(
        "serviceTemplateId",
        `Service template "${input.serviceTemplateId}" does not exist`,
      );
    }
    const id = deps.ids.uuid();
    const ticketNumber = formatTicketNumber(await nextTicketNumberValue(trx));
    await insertTicket(trx, {
      id,
      ticketNumber,
      ...refs,
      itemDescription: input.itemDescription,
      itemCount: input.itemCount ?? 1,
      serialNumber: input.serialNumber ?? null,
      batchId: input.batchId ?? null,
      serviceTemplateId: input.serviceTemplateId ?? null,
      estimate: input.estimate ?? null,
      dueDate: input.dueDate ?? null,
      createdBy: actor.userId,
      now,
    });
    if (template) await addTemplateLines(deps, trx, actor, id, template.defaultLineItems, now);
    await audit(deps, trx, actor, {
      action: "repair_ticket.created",
      entityType: "repair_ticket",
      entityId: id,
      details: { ticketNumber, accountId: input.accountId },
    });
    return await ticketJson(trx, await requireTicket(trx, id));
  });
}

export async function updateTicket(
  deps: AppDeps,
  _actor: Actor,
  id: string,
  input: UpdateTicketInput,
): Promise<TicketJson> {
  return await withTransaction(deps.db, async (trx) => {
    const ticket = await requireLockedTicket(trx, id);
    const refs = {
      accountId: input.accountId ?? ticket.accountId,
      memberId: input.memberId === undefined ? ticket.memberId : input.memberId,
      locationId: input.locationId === undefined ? ticket.locationId : input.locationId,
    };
    await checkReferences(trx, refs, {
      account: refs.accountId !== ticket.accountId,
      member: refs.memberId !== ticket.memberId,
      location: refs.locationId !== ticket.locationId,
    });
    if (input.batchId !== undefined) await checkBatchMove(trx, ticket.batchId, input.batchId);
    await updateTicketRow(trx, id, input, deps.clock.now());
    return await ticketJson(trx, await requireTicket(trx, id));
  });
}

/** Soft delete (repairs.admin): the ticket disappears from lists and reads, its rows stay. */
export async function deleteTicket(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const ticket = await requireTicket(trx, id);
    if (!(await softDeleteTicket(trx, id, deps.clock.now()))) throw ticketNotFound(id);
    await audit(deps, trx, actor, {
      action: "repair_ticket.deleted",
      entityType: "repair_ticket",
      entityId: id,
      details: { ticketNumber: ticket.ticketNumber },
    });
  });
}
