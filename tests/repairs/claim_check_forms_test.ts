/**
 * The repair claim tag (API §9, §17) in its three forms through the one negotiation: JSON,
 * 40-column text and a printable HTML page (escaped, roll or A4); 404 and 403 in any form.
 */
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { makeAccount, makeTicket, move, repairsSuite, type RepairUsers } from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

const EVIL = `Cello <script>alert("x")</script> & 'bow'`;

function claim(id: string, accept?: string, query = "", token = u.viewer.token) {
  return api(t.app, "GET", `/v1/repair-tickets/${id}/claim-check${query}`, {
    token,
    headers: accept ? { Accept: accept } : {},
  });
}

Deno.test("the claim tag's text and page carry the JSON's values; the page escapes them", async () => {
  const account = await makeAccount(t, u, { name: `O'Hara & "Sons" <Strings>` });
  const ticket = await makeTicket(t, u, {
    accountId: account.id,
    itemDescription: EVIL,
    serialNumber: "CEL-9",
    estimate: "80.00",
    dueDate: "2026-12-24",
  });
  await move(t, u, ticket.id, "intake");
  const json = await claim(ticket.id);
  assertEquals(json.status, 200);
  assertEquals(json.body.item.description, EVIL);

  const text = await claim(ticket.id, "text/plain");
  assertStringIncludes(text.headers.get("Content-Type")!, "text/plain");
  for (const row of text.text.split("\n")) assert(Array.from(row).length <= 40, row);
  assert(text.text.split("\n").some((row) => row.trim() === ticket.ticketNumber));
  assert(/^Estimate: +80\.00$/m.test(text.text));

  const page = await claim(ticket.id, "text/html");
  assertEquals(page.status, 200);
  assertStringIncludes(page.headers.get("Content-Type")!, "text/html");
  assertStringIncludes(page.headers.get("Content-Security-Policy")!, "default-src 'none'");
  assert(!page.text.includes("<script"), "no script reaches the page");
  assertStringIncludes(page.text, "Cello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;");
  assertStringIncludes(page.text, "O&#39;Hara &amp; &quot;Sons&quot; &lt;Strings&gt;");
  for (const value of [ticket.ticketNumber, "CEL-9", "80.00", "2026-12-24"]) {
    assertStringIncludes(page.text, `>${value}<`);
  }
  assertStringIncludes(page.text, "@page{size:80mm auto");
  const a4 = await claim(ticket.id, "text/html", "?paper=a4");
  assertStringIncludes(a4.text, "@page{size:A4");
  const bad = await claim(ticket.id, "text/html", "?paper=huge");
  assertEquals([bad.status, bad.body.code], [400, "validation_failed"]);

  // Content negotiation: q-values decide; a browser gets the page; JSON stays the default.
  const browser = await claim(
    ticket.id,
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  );
  assertStringIncludes(browser.headers.get("Content-Type")!, "text/html");
  const preferText = await claim(ticket.id, "application/json;q=0.1, text/plain");
  assertStringIncludes(preferText.headers.get("Content-Type")!, "text/plain");
  const any = await claim(ticket.id, "*/*");
  assertEquals(any.body.ticketNumber, ticket.ticketNumber);
});

Deno.test("the claim tag answers 404 for an unknown ticket and 403 without repairs.view", async () => {
  for (const accept of [undefined, "text/plain", "text/html"]) {
    const missing = await claim(crypto.randomUUID(), accept);
    assertEquals([missing.status, missing.body.code], [404, "not_found"]);
    const refused = await claim(crypto.randomUUID(), accept, "", u.nobody.token);
    assertEquals([refused.status, refused.body.code], [403, "forbidden"]);
  }
});
