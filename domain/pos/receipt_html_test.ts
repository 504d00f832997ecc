import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import { sampleReceiptInput } from "../../tests/_helpers/pos_receipt_fixtures.ts";
import { receiptEmail } from "./receipt_email.ts";
import { renderReceiptHtml } from "./receipt_html.ts";
import { buildReceipt, renderReceiptText } from "./receipt_text.ts";

const EVIL = `Strings <script>alert("pwned")</script> 'light' & co`;

/** The page's visible text: tags removed, entities decoded, whitespace collapsed. */
function visibleText(page: string): string {
  const body = page.slice(page.indexOf("<body"));
  return body.replace(/<br>/g, " ").replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
}

Deno.test("renderReceiptHtml() shows the receipt number and the same figures as the text", () => {
  const receipt = buildReceipt(sampleReceiptInput());
  const page = renderReceiptHtml(receipt);
  const text = visibleText(page);
  assertStringIncludes(text, "No. S-0001234");
  assert(!page.includes(receipt.transactionId), "the UUID is not printed");
  for (
    const figure of ["25.98", "45.00", "70.98", "7.10", "5.27", "69.15", "40.00", "29.15", "0.85"]
  ) {
    assertStringIncludes(text, figure);
    assertStringIncludes(renderReceiptText(receipt), figure);
  }
  assertStringIncludes(text, "2 x 12.99");
  assertStringIncludes(text, "Ref VISA 4242");
  assert(!text.includes("Fret polish"), "consumables never appear");
  assertStringIncludes(page, '<body class="paper-roll">');
  assertStringIncludes(renderReceiptHtml(receipt, "a4"), "@page{size:A4");
});

Deno.test("renderReceiptHtml() escapes descriptions, names and the refund reason", () => {
  const input = sampleReceiptInput();
  input.store = { ...input.store, name: `O'Brien & Sons <Music>` };
  input.cashierName = `"Sam" <b>`;
  input.lines = [{ description: EVIL, quantity: 1, unitPriceCents: 100, isConsumable: false }];
  input.transaction = {
    ...input.transaction,
    type: "refund",
    originalTransactionId: "x",
    originalNumber: 99,
    reason: `<img src=x onerror="alert(1)">`,
  };
  const page = renderReceiptHtml(buildReceipt(input));
  assert(!page.includes("<script"), "no script tag");
  assert(!page.includes("<img"), "no injected tag");
  assert(!page.includes("<b>"));
  assertStringIncludes(page, "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;");
  assertStringIncludes(page, "&#39;light&#39; &amp; co");
  assertStringIncludes(page, "O&#39;Brien &amp; Sons &lt;Music&gt;");
  const text = visibleText(page);
  assertStringIncludes(text, "Refund of S-0000099");
  assertStringIncludes(text, `Reason <img src=x onerror="alert(1)">`);
  assertStringIncludes(text, "REFUND");
});

Deno.test("receiptEmail() carries the text and the HTML forms under a numbered subject", () => {
  const receipt = buildReceipt(sampleReceiptInput());
  const mail = receiptEmail(receipt);
  assertEquals(mail.subject, "Your receipt S-0001234 from Harmony Music & Repair");
  assertEquals(mail.text, renderReceiptText(receipt));
  assertEquals(mail.html, renderReceiptHtml(receipt));
  const refund = buildReceipt({
    ...sampleReceiptInput(),
    store: { name: "Evil\r\nBcc: x@y.test" },
    transaction: { ...sampleReceiptInput().transaction, type: "refund", number: 5 },
  });
  assertEquals(
    receiptEmail(refund).subject,
    "Your refund receipt S-0000005 from Evil Bcc: x@y.test",
  );
});

Deno.test("renderReceiptHtml() prints a refund's amounts as positive under refund labels", () => {
  const input = sampleReceiptInput();
  input.transaction = { ...input.transaction, type: "refund", originalNumber: 1234 };
  input.lines = [{
    description: "Setup labor",
    quantity: 1,
    unitPriceCents: 4500,
    isConsumable: false,
    amountCents: -4500,
  }];
  input.totals = {
    subtotalCents: -4500,
    discountTotalCents: 0,
    taxTotalCents: 0,
    totalCents: -4500,
  };
  input.payments = [{ method: "card", amountCents: -4500, tenderedCents: -4500, changeCents: 0 }];
  const text = visibleText(renderReceiptHtml(buildReceipt(input)));
  assertStringIncludes(text, "TOTAL REFUNDED 45.00");
  assertStringIncludes(text, "Card refund 45.00");
  assert(!text.includes("-45.00"), text);
});
