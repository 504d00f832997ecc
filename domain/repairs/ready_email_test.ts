import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { readyForPickupEmail } from "./ready_email.ts";

Deno.test("readyForPickupEmail() names the ticket, the item and the balance due", () => {
  const mail = readyForPickupEmail({
    storeName: "Harmony Music",
    storePhone: "555-0100",
    accountName: "Ada Lovelace",
    ticketNumber: "R-000042",
    itemDescription: "Cello\r\nBcc: evil@example.test",
    itemCount: 1,
    balanceDueCents: 8550,
  });
  assertEquals(mail.subject, "Your repair R-000042 is ready for pickup");
  assert(mail.text.includes("R-000042"));
  assert(mail.text.includes("Cello Bcc: evil@example.test."), mail.text);
  assert(mail.text.includes("Balance due at pickup: 85.50"));
  assert(mail.text.includes("Harmony Music - 555-0100"));
  const paid = readyForPickupEmail({
    storeName: "Shop",
    storePhone: null,
    accountName: "A",
    ticketNumber: "R-000043",
    itemDescription: "Flutes",
    itemCount: 3,
    balanceDueCents: 0,
  });
  assert(paid.text.includes("Flutes (3 items)."));
  assert(paid.text.includes("Nothing is due at pickup."));
});
