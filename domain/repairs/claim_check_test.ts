import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { type ClaimCheckInput, renderClaimCheckHtml, renderClaimCheckText } from "./claim_check.ts";

const INPUT: ClaimCheckInput = {
  store: {
    name: "Harmony Music",
    address: { line1: "12 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
    phone: "555-0100",
  },
  timeZone: "America/Chicago",
  ticketNumber: "R-000123",
  accountName: "Lincoln High School Band Boosters Association of Springfield",
  itemDescription: "Trumpet, Bach Stradivarius\u0000 with\ttwo   mouthpieces and a hard case",
  itemCount: 2,
  serialNumber: "ABC-123",
  intakeAt: new Date("2026-11-21T16:05:00Z"),
  estimateCents: 12050,
  dueDate: "2026-12-01",
};

Deno.test("renderClaimCheckText() prints the tag in 40 columns with every field", () => {
  const text = renderClaimCheckText(INPUT);
  const lines = text.split("\n");
  assertEquals(lines.at(-1), "");
  for (const line of lines) assert(Array.from(line).length <= 40, JSON.stringify(line));
  assert(lines.some((l) => l.trim() === "R-000123"));
  assert(lines.some((l) => l.trim() === "REPAIR CLAIM CHECK"));
  assert(lines.some((l) => /^Count: +2$/.test(l)));
  assert(lines.some((l) => /^Serial: +ABC-123$/.test(l)));
  assert(lines.some((l) => /^Intake: +2026-11-21 10:05$/.test(l)), text);
  assert(lines.some((l) => /^Estimate: +120\.50$/.test(l)));
  assert(lines.some((l) => /^Due: +2026-12-01$/.test(l)));
  // A long value wraps under its label; control characters never reach the paper.
  assert(lines.includes("Item:"), text);
  assert(!text.includes("\u0000") && !text.includes("\t"));
});

Deno.test("renderClaimCheckText() shows a dash before intake and leaves out what is unknown", () => {
  const text = renderClaimCheckText({
    ...INPUT,
    serialNumber: null,
    intakeAt: null,
    estimateCents: null,
    dueDate: null,
  });
  assert(/^Intake: +-$/m.test(text));
  assert(!/Serial|Estimate|Due/.test(text));
});

Deno.test("renderClaimCheckHtml() escapes every value", () => {
  const html = renderClaimCheckHtml({ ...INPUT, accountName: "<script>alert(1)</script>" });
  assert(!html.includes("<script>"));
  assert(html.includes("&lt;script&gt;"));
  assert(html.includes("R-000123"));
});
