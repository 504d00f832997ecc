import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import {
  escapeHtml,
  fieldsHtml,
  markup,
  printCss,
  renderPrintPage,
  SafeHtml,
  storeHeaderHtml,
} from "./html_page.ts";

const EVIL = `<script>alert("x")</script> & 'quotes'`;

Deno.test("escapeHtml() escapes &, <, >, double and single quotes", () => {
  assertEquals(
    escapeHtml(EVIL),
    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;",
  );
});

Deno.test("markup`` escapes every value but keeps markup`` pieces and joins arrays", () => {
  const cell = markup`<td>${EVIL}</td>`;
  assert(cell instanceof SafeHtml);
  assertEquals(
    markup`<tr>${cell}${[markup`<td>${1}</td>`, "<b>"]}${null}${undefined}${false}</tr>`.value,
    `<tr><td>${escapeHtml(EVIL)}</td><td>1</td>&lt;b&gt;</tr>`,
  );
  assertEquals(markup`<p title="${`" onload="x`}">`.value, '<p title="&quot; onload=&quot;x">');
});

Deno.test("renderPrintPage() is one self-contained page sized for the roll or A4", () => {
  const roll = renderPrintPage({ title: EVIL, body: markup`<p>${EVIL}</p>` });
  assert(roll.startsWith("<!doctype html>"));
  assert(!roll.includes("<script>"), "nothing the caller gave becomes markup");
  assertStringIncludes(roll, '<body class="paper-roll">');
  assertStringIncludes(roll, "@page{size:80mm auto");
  assertStringIncludes(roll, "@media print{");
  assert(!/<script|src=|href=|@import|url\(/i.test(roll), "no script, no external asset");
  const a4 = renderPrintPage({ title: "x", paper: "a4", body: markup`` });
  assertStringIncludes(a4, '<body class="paper-a4">');
  assertStringIncludes(a4, "@page{size:A4 portrait");
  assert(!a4.includes("80mm auto"));
  assert(printCss("roll") !== printCss("a4"));
});

Deno.test("storeHeaderHtml() and fieldsHtml() escape the store and every value", () => {
  const header = storeHeaderHtml({
    name: "Ben & Jerry's <Music>",
    address: { line1: "1 <Main>", city: "Town", state: "IL", postalCode: "62701" },
    phone: null,
    email: "a@b.test",
  }).value;
  assertStringIncludes(header, "Ben &amp; Jerry&#39;s &lt;Music&gt;");
  assertStringIncludes(header, "1 &lt;Main&gt;<br>Town, IL 62701<br>a@b.test");
  const fields = fieldsHtml([["<k>", EVIL]]).value;
  assertEquals(
    fields,
    `<table class="fields"><tr><th>&lt;k&gt;</th><td>${escapeHtml(EVIL)}</td></tr></table>`,
  );
});
