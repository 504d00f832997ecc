import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import {
  type AgreementInput,
  agreementSections,
  renderAgreementHtml,
  renderAgreementText,
} from "./agreement.ts";

const INPUT: AgreementInput = {
  store: {
    name: "Harmony Music",
    address: { line1: "12 Main St", city: "Springfield", state: "IL", postalCode: "62701" },
    phone: "555-0100",
    email: "shop@harmony.test",
  },
  rentalNumber: "L-000123",
  status: "active",
  account: {
    accountNumber: "A-000042",
    name: "The Extraordinarily Long Family Name of Springfield Illinois",
    phone: "555-0199",
    email: "family@example.test",
    address: {
      line1: "4 Elm St",
      line2: "Apt 2",
      city: "Springfield",
      state: "IL",
      postalCode: "62702",
    },
  },
  memberName: "Stu Dent",
  productName: "Student Trumpet, Bach TR300H2 with case",
  serialNumber: "TRP-0001",
  startDate: "2026-11-21",
  dueDate: "2027-06-01",
  billingInterval: "monthly",
  rateCents: 3950,
  depositCents: 5000,
  rentToOwn: {
    purchasePriceCents: 60000,
    equityPercentBp: 5000,
    equityCents: 1975,
    payoffCents: 58025,
  },
};

Deno.test("renderAgreementText() prints the parties, unit, rate and rent-to-own in 40 columns", () => {
  const text = renderAgreementText(INPUT);
  const lines = text.split("\n");
  for (const line of lines) assert(Array.from(line).length <= 40, JSON.stringify(line));
  assertEquals(lines.at(-1), "");
  assert(lines.some((l) => l.trim() === "RENTAL AGREEMENT"));
  assert(lines.some((l) => l.trim() === "L-000123"));
  assert(/^Account: +A-000042$/m.test(text));
  assert(/^Student: +Stu Dent$/m.test(text));
  assert(/^Serial: +TRP-0001$/m.test(text));
  assert(/^Rate: +39\.50 \/ month$/m.test(text));
  assert(/^Deposit: +50\.00$/m.test(text));
  assert(/^Purchase price: +600\.00$/m.test(text));
  assert(/^Equity per charge: +50\.00%$/m.test(text));
  assert(/^Equity to date: +19\.75$/m.test(text));
  assert(/^Payoff: +580\.25$/m.test(text));
  assert(lines.includes("Customer:"), "a long name wraps under its label");
  assertStringIncludes(text, "Customer signature");
});

Deno.test("an agreement without rent-to-own, deposit, member or serial leaves them out", () => {
  const plain = {
    ...INPUT,
    memberName: null,
    serialNumber: null,
    depositCents: null,
    rentToOwn: null,
    dueDate: null,
    billingInterval: "weekly" as const,
  };
  const text = renderAgreementText(plain);
  assert(!/RENT-TO-OWN|Payoff|Deposit|^Student:|Due back/m.test(text), text);
  assert(/^Serial: +-$/m.test(text));
  assert(/^Rate: +39\.50 \/ week$/m.test(text));
  assertEquals(agreementSections(plain).rentToOwn, null);
});

Deno.test("renderAgreementHtml() holds the same rows, every value escaped", () => {
  const page = renderAgreementHtml({
    ...INPUT,
    productName: `Trumpet <script>alert("x")</script>`,
    memberName: `O'Neil & "Kid"`,
  }, "a4");
  assert(!page.includes("<script>"));
  assertStringIncludes(page, "Trumpet &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  assertStringIncludes(page, "O&#39;Neil &amp; &quot;Kid&quot;");
  for (const value of ["L-000123", "A-000042", "TRP-0001", "39.50 / month", "580.25", "50.00%"]) {
    assertStringIncludes(page, value);
  }
  assertStringIncludes(page, "@page{size:A4");
});
