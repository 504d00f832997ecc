/**
 * Which repair tickets a scanned serial number names (API §17): a customer's instrument is
 * found by the serial on its repair ticket. An instrument comes back for repair year after
 * year, so its serial names
 *  - its open tickets (not picked_up, delivered or cancelled): the repair under way;
 *  - with none open, its latest ticket (its last repair), unless a unit of the shop's stock
 *    carries the serial: the shop's own instrument is then the answer, and its past repairs
 *    stay in its story (`GET /units/by-serial/:serial`) and `GET /repair-tickets?serialNumber=`.
 * Several open tickets of one serial are an ambiguity the clerk resolves.
 */
import { CLOSED_STATUSES, type RepairStatus } from "../repairs/status_machine.ts";

export function isOpenTicketStatus(status: string): boolean {
  return !CLOSED_STATUSES.includes(status as RepairStatus);
}

/**
 * The tickets the serial names, out of `tickets` (every ticket carrying it, or at least its
 * open ones and its newest; `createdAt` ISO), given whether a unit carries the serial too.
 */
export function ticketsNamedBySerial<T extends { status: string; createdAt: string }>(
  tickets: readonly T[],
  unitFound: boolean,
): T[] {
  const open = tickets.filter((ticket) => isOpenTicketStatus(ticket.status));
  if (open.length > 0 || unitFound) return open;
  const latest = tickets.reduce<T | undefined>(
    (newest, ticket) => !newest || ticket.createdAt > newest.createdAt ? ticket : newest,
    undefined,
  );
  return latest ? [latest] : [];
}
