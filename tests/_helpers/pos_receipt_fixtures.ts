/** A receipt's input shared by the receipt tests (domain text rendering and app JSON). */
import type { ReceiptInput } from "../../domain/pos/receipt_text.ts";

/** When the sample sale completed: 09:04 in the store's zone (America/Chicago). */
export const RECEIPT_AT = new Date("2026-11-21T15:04:05.000Z");

/** A complete sale of two lines and a consumable, paid by card and cash with change. */
export function sampleReceiptInput(): ReceiptInput {
  return {
    store: {
      name: "Harmony Music & Repair",
      address: { line1: "12 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
      phone: "(217) 555-0100",
    },
    transaction: {
      id: "0193a6f0-1c2b-7d4e-8f90-123456789abc",
      number: 1234,
      type: "sale",
      status: "complete",
      at: RECEIPT_AT,
    },
    timeZone: "America/Chicago",
    cashierName: "Sam Lee",
    lines: [
      {
        description: "Guitar strings, light gauge",
        quantity: 2,
        unitPriceCents: 1299,
        isConsumable: false,
      },
      { description: "Setup labor", quantity: 1, unitPriceCents: 4500, isConsumable: false },
      {
        description: "Fret polish (shop use)",
        quantity: 1,
        unitPriceCents: 300,
        isConsumable: true,
      },
    ],
    totals: { subtotalCents: 7098, discountTotalCents: 710, taxTotalCents: 527, totalCents: 6915 },
    payments: [
      { method: "card", amountCents: 4000, reference: "VISA 4242" },
      { method: "cash", amountCents: 2915, tenderedCents: 3000, changeCents: 85 },
    ],
  };
}
