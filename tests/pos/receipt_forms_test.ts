// deno-lint-ignore-file no-explicit-any
/**
 * Receipts at the counter (API §17): the human receipt number on every transaction and receipt
 * form (never the UUID), a refund's receipt naming its original and reason, the printable HTML
 * page (escaped, roll or A4), content negotiation, and emailing the receipt through the outbox
 * (arriving over SMTP with a text and an HTML part).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import {
  api,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { deliverDueEmails, smtpTransport } from "../../app/email/outbox_worker.ts";
import { formatReceiptNumber } from "../../domain/pos/receipt_number.ts";
import { preferredPrintForm } from "../../server/printable.ts";
import { mailPartsTo, outboxTo } from "../email/_outbox.ts";
import { fakeSmtpServer, mimeParts } from "../email/_smtp.ts";
import {
  createSale,
  payAndComplete,
  posSuite,
  type PosUsers,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let front: TestUser;

posSuite(async (s) => {
  ({ t, u } = s);
  front = await createUserWithPermissions(t, ["accounts.edit"]);
});

const EVIL = `Reed case <script>alert("x")</script> & 'quotes'`;
const EVIL_ESCAPED = "Reed case &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; " +
  "&#39;quotes&#39;";

function receipt(id: string, accept?: string, query = "", token = u.viewer.token) {
  return api(t.app, "GET", `/v1/transactions/${id}/receipt${query}`, {
    token,
    headers: accept ? { Accept: accept } : {},
  });
}

function emailReceipt(id: string, body?: unknown, token = u.cashier.token) {
  return api(t.app, "POST", `/v1/transactions/${id}/receipt/email`, { token, body });
}

async function makeAccount(email?: string): Promise<any> {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: front.token,
    body: {
      name: `Receipt Customer ${crypto.randomUUID().slice(0, 6)}`,
      ...(email ? { email } : {}),
    },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

/** A completed cash sale of an escaped-worthy line and a plain one. */
async function completedSale(extra: Record<string, unknown> = {}) {
  const { locationId } = await storeWithDrawer(t, u);
  const tx = await createSale(t, u.cashier.token, locationId, [
    { description: EVIL, quantity: 1, unitPrice: "7.50" },
    { description: "Reeds", quantity: 3, unitPrice: "2.00" },
  ], extra);
  const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
    token: u.cashier.token,
    body: { method: "cash", amount: tx.total, tendered: "20.00" },
  });
  assertEquals(paid.status, 201, paid.text);
  return await payAndComplete(t, u.cashier.token, paid.body.transaction);
}

// ------------------------------------------------------------ receipt numbers

Deno.test("every transaction answer carries receiptNumber = its number as S-0001234", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const created = await createSale(t, u.cashier.token, locationId, [
    { description: "Cloth", quantity: 1, unitPrice: "1.00" },
  ]);
  assertMatch(created.receiptNumber, /^S-\d{7,}$/);
  assertEquals(created.receiptNumber, formatReceiptNumber(created.number));
  assertEquals(created.receiptNumber, `S-${String(created.number).padStart(7, "0")}`);
  const got = await api(t.app, "GET", `/v1/transactions/${created.id}`, { token: u.viewer.token });
  assertEquals(got.body.receiptNumber, created.receiptNumber);
  const listed = await api(t.app, "GET", `/v1/transactions?locationId=${locationId}`, {
    token: u.viewer.token,
  });
  assertEquals(listed.body.data.map((x: any) => x.receiptNumber), [created.receiptNumber]);
  const done = await payAndComplete(t, u.cashier.token, created);
  assertEquals(done.receiptNumber, created.receiptNumber);
});

Deno.test("the receipt's three forms are numbered S-… and never show the UUID", async () => {
  const sale = await completedSale();
  const json = await receipt(sale.id);
  assertEquals(json.status, 200);
  assertEquals(json.body.receiptNumber, sale.receiptNumber);
  // The fields clients already read are still there.
  assertEquals(json.body.transactionId, sale.id);
  assertEquals([json.body.originalTransactionId, json.body.originalReceiptNumber], [null, null]);
  assertEquals(json.body.refundReason, null);
  assertEquals([json.body.total, json.body.change], ["13.50", "6.50"]);
  assertEquals(json.body.lines[0].description, EVIL);

  const text = await receipt(sale.id, "text/plain");
  assertEquals(text.status, 200);
  assertStringIncludes(text.headers.get("Content-Type")!, "text/plain");
  const rows = text.text.split("\n");
  for (const row of rows) assert(Array.from(row).length <= 40, JSON.stringify(row));
  assert(rows.includes(`No. ${sale.receiptNumber}`), text.text);
  assert(!text.text.includes(sale.id), "no UUID on the text receipt");

  const html = await receipt(sale.id, "text/html");
  assertEquals(html.status, 200);
  assertStringIncludes(html.headers.get("Content-Type")!, "text/html");
  assertStringIncludes(html.headers.get("Content-Security-Policy")!, "default-src 'none'");
  assertStringIncludes(html.headers.get("Vary")!, "Accept");
  assertStringIncludes(html.text, sale.receiptNumber);
  assert(!html.text.includes(sale.id), "no UUID on the page");
});

Deno.test("the HTML receipt escapes descriptions and carries the JSON's figures", async () => {
  const sale = await completedSale();
  const json = (await receipt(sale.id)).body;
  const page = (await receipt(sale.id, "text/html")).text;
  assert(page.startsWith("<!doctype html>"));
  assert(!page.includes("<script"), "the description's script tag is not markup");
  assertStringIncludes(page, EVIL_ESCAPED);
  for (const figure of [json.subtotal, json.tax, json.total, json.change, json.amountPaid]) {
    assertStringIncludes(page, `>${figure}<`);
  }
  for (const line of json.lines) assertStringIncludes(page, `>${line.amount}<`);
  assertStringIncludes(page, "3 x 2.00");
  // Paper: the 80 mm roll by default, A4 on request, anything else refused.
  assertStringIncludes(page, "@page{size:80mm auto");
  assertStringIncludes(page, "@media print");
  const a4 = await receipt(sale.id, "text/html", "?paper=a4");
  assertEquals(a4.status, 200);
  assertStringIncludes(a4.text, "@page{size:A4");
  const bad = await receipt(sale.id, "text/html", "?paper=letter");
  assertEquals([bad.status, bad.body.code], [400, "validation_failed"]);
});

Deno.test("a refund's receipt names the original's receipt number and the reason", async () => {
  const sale = await completedSale();
  const itemId = sale.items.find((i: any) => i.description === "Reeds").id;
  const reason = 'Cracked <reed> "tip"; customer\'s choice';
  const refunded = await api(t.app, "POST", `/v1/transactions/${sale.id}/refunds`, {
    token: u.manager.token,
    body: { items: [{ itemId, quantity: 1 }], method: "cash", reason },
  });
  assertEquals(refunded.status, 201, refunded.text);
  const refund = refunded.body;
  assertMatch(refund.receiptNumber, /^S-\d{7,}$/);
  assert(refund.receiptNumber !== sale.receiptNumber);

  const json = (await receipt(refund.id)).body;
  assertEquals(json.receiptNumber, refund.receiptNumber);
  assertEquals(json.originalTransactionId, sale.id);
  assertEquals(json.originalReceiptNumber, sale.receiptNumber);
  assertEquals(json.refundReason, reason);

  const text = (await receipt(refund.id, "text/plain")).text;
  const rows = text.split("\n");
  for (const row of rows) assert(Array.from(row).length <= 40, JSON.stringify(row));
  assert(rows.includes(`No. ${refund.receiptNumber}`), text);
  assert(rows.includes(`Refund of ${sale.receiptNumber}`), text);
  assertStringIncludes(text.replace(/\n/g, " "), `Reason: ${reason}`);
  assert(!text.includes(sale.id) && !text.includes(refund.id), "no UUID");
  // The reports' sign convention: what goes back prints positive under a label saying so.
  const paidBack = refund.total.replace("-", "");
  assertMatch(text, new RegExp(`^TOTAL REFUNDED +${paidBack}$`, "m"));
  assertMatch(text, new RegExp(`^Cash refund +${paidBack}$`, "m"));
  assert(!/-\d+\.\d\d/.test(text), text);

  const page = (await receipt(refund.id, "text/html")).text;
  assertStringIncludes(page, sale.receiptNumber);
  assertStringIncludes(page, "TOTAL REFUNDED");
  assert(!page.includes(refund.total), "the page prints the magnitude, not the signed total");
  assertStringIncludes(page, "Cracked &lt;reed&gt; &quot;tip&quot;; customer&#39;s choice");
  assert(!page.includes("<reed>"));
});

Deno.test("the receipt route answers 404 for an unknown id and 403 without pos.view, in any form", async () => {
  for (const accept of [undefined, "text/plain", "text/html"]) {
    const missing = await receipt(crypto.randomUUID(), accept);
    assertEquals([missing.status, missing.body.code], [404, "not_found"]);
    const malformed = await receipt("not-a-uuid", accept);
    assertEquals(malformed.status, 404);
    const refused = await receipt(crypto.randomUUID(), accept, "", u.nobody.token);
    assertEquals([refused.status, refused.body.code], [403, "forbidden"]);
  }
});

Deno.test("preferredPrintForm() picks json, text or html from Accept", () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/json", "json"],
    ["text/plain", "text"],
    ["TEXT/PLAIN; charset=utf-8", "text"],
    ["text/html", "html"],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"],
    ["text/plain, application/json", "json"],
    ["application/json;q=0.5, text/plain", "text"],
    ["text/plain;q=0.9, text/html;q=0.8", "text"],
    ["text/*", "html"],
    ["text/*, text/html;q=0", "text"],
    ["image/png", "json"],
    ["garbage", "json"],
  ];
  for (const [accept, form] of cases) assertEquals(preferredPrintForm(accept), form, accept);
});

// ------------------------------------------------------------ email

Deno.test("POST /receipt/email queues the receipt to the account's email and audits it", async () => {
  const email = `buyer-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const account = await makeAccount(email);
  const sale = await completedSale({ accountId: account.id });
  const res = await emailReceipt(sale.id);
  assertEquals(res.status, 202, res.text);
  assertEquals(res.body.to, email);
  assertEquals(res.body.receiptNumber, sale.receiptNumber);
  assertEquals(res.body.status, "queued");
  const rows = await outboxTo(t, email);
  assertEquals(rows.map((r) => [r.id, r.status]), [[res.body.emailId, "pending"]]);
  assertStringIncludes(rows[0]!.subject, sale.receiptNumber);
  const [stored] = await mailPartsTo(t, email);
  assertEquals(stored!.text, (await receipt(sale.id, "text/plain")).text);
  assertEquals(stored!.html, (await receipt(sale.id, "text/html")).text);

  // An explicit `to` wins over the account's address.
  const other = `other-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const given = await emailReceipt(sale.id, { to: other });
  assertEquals([given.status, given.body.to], [202, other]);
  assertEquals((await outboxTo(t, other)).length, 1);

  const audit = await api(
    t.app,
    "GET",
    `/v1/audit-log?action=pos.receipt_emailed&entityId=${sale.id}`,
    { token: u.auditor.token },
  );
  assertEquals(audit.status, 200);
  assertEquals(audit.body.data.length, 2);
  const entry = audit.body.data.find((e: any) => e.details.to === email);
  assertEquals(entry.actorId, u.cashier.id);
  assertEquals(entry.entityType, "transaction");
  assertEquals(entry.details.receiptNumber, sale.receiptNumber);
  assertEquals(entry.details.emailId, res.body.emailId);
  const details = JSON.stringify(audit.body.data);
  assert(!details.includes("Reeds") && !details.includes("13.50"), "no message body in the log");
});

Deno.test("emailing a receipt: no address → 400, bad address → 400, 404, 403", async () => {
  const noAccount = await completedSale();
  const none = await emailReceipt(noAccount.id);
  assertEquals([none.status, none.body.code], [400, "validation_failed"]);
  assertEquals(none.body.errors[0].path, "to");
  const silent = await completedSale({ accountId: (await makeAccount()).id });
  const alsoNone = await emailReceipt(silent.id, {});
  assertEquals([alsoNone.status, alsoNone.body.code], [400, "validation_failed"]);

  for (const body of [{ to: "not an email" }, { to: "" }, { to: 42 }, { cc: "a@b.test" }]) {
    const bad = await emailReceipt(noAccount.id, body);
    assertEquals([bad.status, bad.body.code], [400, "validation_failed"], JSON.stringify(body));
  }
  const missing = await emailReceipt(crypto.randomUUID(), { to: "a@example.test" });
  assertEquals([missing.status, missing.body.code], [404, "not_found"]);
  const viewer = await emailReceipt(noAccount.id, { to: "a@example.test" }, u.viewer.token);
  assertEquals([viewer.status, viewer.body.code], [403, "forbidden"]);
});

Deno.test("emailing a receipt needs the email module: 403 module_disabled, nothing queued", async () => {
  const sale = await completedSale();
  const to = `off-${crypto.randomUUID().slice(0, 8)}@example.test`;
  await t.deps.db.updateTable("modules").set({ enabled: false }).where("slug", "=", "email")
    .execute();
  t.deps.modules.invalidate();
  try {
    const res = await emailReceipt(sale.id, { to });
    assertEquals([res.status, res.body.code], [403, "module_disabled"]);
  } finally {
    await t.deps.db.updateTable("modules").set({ enabled: true }).where("slug", "=", "email")
      .execute();
    t.deps.modules.invalidate();
  }
  assertEquals((await outboxTo(t, to)).length, 0);
});

Deno.test("an emailed receipt arrives over SMTP with a text part and an HTML part", async () => {
  const smtp = fakeSmtpServer();
  const transport = smtpTransport(smtp.url);
  try {
    const to = `smtp-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const sale = await completedSale({ accountId: (await makeAccount(to)).id });
    assertEquals((await emailReceipt(sale.id)).status, 202);
    const report = await deliverDueEmails(t.deps, transport);
    assert(report.sent >= 1, JSON.stringify(report));
    const raw = smtp.messages.find((m) => m.includes(to));
    assert(raw, "the receipt reached the SMTP server");
    assertMatch(raw, /^Subject: .*S-\d{7}/m);
    assertMatch(raw, /Content-Type: multipart\/alternative/i);
    const parts = mimeParts(raw);
    const text = parts.find((p) => p.contentType.startsWith("text/plain"));
    const html = parts.find((p) => p.contentType.startsWith("text/html"));
    assert(text && html, `both parts: ${parts.map((p) => p.contentType)}`);
    assert(text.body.split(/\r?\n/).includes(`No. ${sale.receiptNumber}`), text.body);
    assertStringIncludes(text.body, "13.50");
    assert(!text.body.includes(sale.id));
    assertStringIncludes(html.body, "<!doctype html>");
    assertStringIncludes(html.body, sale.receiptNumber);
    assertStringIncludes(html.body, EVIL_ESCAPED);
    assert(!html.body.includes("<script"));
    const [row] = await outboxTo(t, to);
    assertEquals([row!.status, row!.bodyEncrypted], ["sent", null]);
  } finally {
    transport.close();
    smtp.close();
  }
});

Deno.test("the OpenAPI document lists the three forms of each printed route and the email route", async () => {
  const doc = await (await t.app.request("/v1/openapi.json")).json();
  for (
    const path of [
      "/v1/transactions/{id}/receipt",
      "/v1/repair-tickets/{id}/claim-check",
      "/v1/rentals/{id}/agreement",
    ]
  ) {
    const op = doc.paths[path].get;
    assertEquals(
      Object.keys(op.responses["200"].content).sort(),
      ["application/json", "text/html", "text/plain"],
      path,
    );
    assertStringIncludes(op.description, "`text/html`");
    assert(op.parameters.some((p: any) => p.in === "query" && p.name === "paper"), path);
  }
  const email = doc.paths["/v1/transactions/{id}/receipt/email"].post;
  assert(email.responses["202"].content["application/json"], "202 documented");
  assertStringIncludes(email.description, "pos.receipt_emailed");
});
