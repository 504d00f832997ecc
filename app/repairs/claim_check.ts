/**
 * The claim tag (API §9 `GET /repair-tickets/:id/claim-check`): its JSON, and the input of
 * its printable forms (domain/repairs/claim_check.ts) with the store's header and time zone.
 */
import type { ClaimCheckInput } from "../../domain/repairs/claim_check.ts";
import { parseMoney } from "../../domain/money.ts";
import type { AppDeps } from "../deps.ts";
import { printedStore } from "../platform/store.ts";
import { findStore } from "../platform/store_repo.ts";
import { requireTicket } from "./ticket_lookup.ts";
import type { ClaimCheckJson } from "./ticket_schemas.ts";

export async function getClaimCheck(
  deps: Pick<AppDeps, "db">,
  id: string,
): Promise<{ json: ClaimCheckJson; printable: ClaimCheckInput }> {
  const ticket = await requireTicket(deps.db, id);
  const store = await findStore(deps.db);
  return {
    json: {
      ticketNumber: ticket.ticketNumber,
      account: { id: ticket.accountId, name: ticket.accountName },
      item: { description: ticket.itemDescription, count: ticket.itemCount },
      serialNumber: ticket.serialNumber,
      intakeAt: ticket.intakeAt,
      estimate: ticket.estimate,
      dueDate: ticket.dueDate,
    },
    printable: {
      store: printedStore(store),
      timeZone: store.timezone,
      ticketNumber: ticket.ticketNumber,
      accountName: ticket.accountName,
      itemDescription: ticket.itemDescription,
      itemCount: ticket.itemCount,
      serialNumber: ticket.serialNumber,
      intakeAt: ticket.intakeAt === null ? null : new Date(ticket.intakeAt),
      estimateCents: ticket.estimate === null ? null : parseMoney(ticket.estimate),
      dueDate: ticket.dueDate,
    },
  };
}
