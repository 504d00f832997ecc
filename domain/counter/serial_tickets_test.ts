import { assertEquals } from "../../tests/_helpers/assert.ts";
import { ticketsNamedBySerial } from "./serial_tickets.ts";

let day = 0;
const ticket = (id: string, status: string) => ({
  id,
  status,
  createdAt: `2026-01-${String(28 - ++day).padStart(2, "0")}T10:00:00.000Z`,
});

Deno.test("ticketsNamedBySerial() names the open tickets of a serial", () => {
  const tickets = [
    ticket("new", "in_progress"),
    ticket("older", "picked_up"),
    ticket("oldest", "intake"),
  ];
  assertEquals(ticketsNamedBySerial(tickets, false).map((t) => t.id), ["new", "oldest"]);
  assertEquals(ticketsNamedBySerial(tickets, true).map((t) => t.id), ["new", "oldest"]);
});

Deno.test("ticketsNamedBySerial() falls back to the last repair unless a unit has the serial", () => {
  const closed = [ticket("last", "delivered"), ticket("before", "cancelled")];
  assertEquals(ticketsNamedBySerial(closed, false).map((t) => t.id), ["last"]);
  assertEquals(ticketsNamedBySerial(closed.toReversed(), false).map((t) => t.id), ["last"]);
  assertEquals(ticketsNamedBySerial(closed, true), []);
  assertEquals(ticketsNamedBySerial([], false), []);
});
