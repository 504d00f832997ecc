import { assertEquals } from "../../tests/_helpers/assert.ts";
import { DOCX, ODS, ODT, XLSX, zip } from "../../tests/_helpers/zip.ts";
import {
  DOCUMENT_WHITELIST,
  extensionsOf,
  isPlainText,
  recordFileWhitelist,
  startsLikeCode,
} from "./content_type.ts";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const record = (content: Uint8Array, category: string | null) =>
  recordFileWhitelist(category).sniff(content);
const document = (content: Uint8Array) => DOCUMENT_WHITELIST.sniff(content);

Deno.test("the record whitelist recognises JPEG, PNG, GIF, WebP and PDF by their first bytes", () => {
  assertEquals(record(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0), null)?.contentType, "image/jpeg");
  assertEquals(
    record(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), null)?.contentType,
    "image/png",
  );
  assertEquals(record(text("GIF89a...."), null)?.contentType, "image/gif");
  assertEquals(record(text("GIF87a...."), null)?.contentType, "image/gif");
  assertEquals(record(text("RIFF\x10\x00\x00\x00WEBPVP8 "), null)?.contentType, "image/webp");
  assertEquals(record(text("%PDF-1.7\n"), null)?.extension, "pdf");
});

Deno.test("the record whitelist refuses other formats whatever the category", () => {
  assertEquals(record(text("<svg xmlns='http://www.w3.org/2000/svg'/>"), null), undefined);
  assertEquals(record(text("<html><script>alert(1)</script>"), "profile"), undefined);
  assertEquals(record(text("RIFF\x10\x00\x00\x00WAVEfmt "), null), undefined);
  assertEquals(record(bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00), "notes"), undefined); // zip
  assertEquals(record(DOCX, null), undefined, "office documents belong in the storage hub");
  assertEquals(record(bytes(), null), undefined);
});

Deno.test("the record whitelist accepts plain text only in the notes category", () => {
  assertEquals(record(text("hello, café"), "notes")?.contentType, "text/plain; charset=utf-8");
  assertEquals(record(text("hello"), null), undefined);
  assertEquals(record(text("hello"), "profile"), undefined);
});

Deno.test("the document whitelist takes images, PDF, office documents, text and CSV", () => {
  const cases: Array<[Uint8Array, string, string]> = [
    [text("%PDF-1.7\n"), "application/pdf", "pdf"],
    [bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0), "image/jpeg", "jpg"],
    [DOCX, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"],
    [XLSX, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"],
    [ODT, "application/vnd.oasis.opendocument.text", "odt"],
    [ODS, "application/vnd.oasis.opendocument.spreadsheet", "ods"],
    [text("sku,name,price\nSTR-10,Strings,9.99\n"), "text/plain; charset=utf-8", "txt"],
    [text("\ufeffOpening hours: 9–5 ✓"), "text/plain; charset=utf-8", "txt"],
  ];
  for (const [content, contentType, extension] of cases) {
    assertEquals(document(content), { contentType, extension }, contentType);
  }
});

Deno.test("the document whitelist refuses executables, markup, other archives and binary text", () => {
  const cases: Array<[string, Uint8Array]> = [
    ["a Windows executable", text("MZ\x90\x00\x03\x00\x00\x00")],
    ["an ELF executable", text("\x7fELF\x02\x01\x01")],
    ["a shell script", text("#!/bin/sh\nrm -rf /\n")],
    ["an HTML page", text("<!doctype html><script>alert(1)</script>")],
    ["HTML after white space", text("\n\t <html><body>hi</body></html>")],
    ["HTML after a byte order mark", text("\ufeff<html>")],
    ["an SVG", text("<svg xmlns='http://www.w3.org/2000/svg'/>")],
    ["XML", text('<?xml version="1.0"?><a/>')],
    ["a plain ZIP", zip([["readme.txt", "hello"]])],
    ["a legacy Word file", bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)],
    ["text with NUL", bytes(0x61, 0x00, 0x62)],
    ["text with escape sequences", text("Price list\x1b[2J")],
    ["UTF-16 text", bytes(0xff, 0xfe, 0x61, 0x00)],
    ["invalid UTF-8", bytes(0xc3, 0x28)],
  ];
  for (const [what, content] of cases) {
    assertEquals(document(content), undefined, what);
  }
});

Deno.test("startsLikeCode() sees markup after a BOM and white space, and a script's #!", () => {
  assertEquals(startsLikeCode(text("  <p>")), true);
  assertEquals(startsLikeCode(text("#!/usr/bin/env python3")), true);
  assertEquals(startsLikeCode(text("price < 10")), false);
  assertEquals(startsLikeCode(text("# Price list")), false);
  assertEquals(startsLikeCode(text("")), false);
});

Deno.test("extensionsOf() knows the stored types; text keeps csv and tsv names", () => {
  assertEquals(extensionsOf("text/plain; charset=utf-8")?.includes("csv"), true);
  assertEquals(extensionsOf("application/vnd.oasis.opendocument.spreadsheet"), ["ods"]);
  assertEquals(extensionsOf("application/x-msdownload"), undefined);
});

Deno.test("isPlainText() refuses NUL bytes and invalid UTF-8", () => {
  assertEquals(isPlainText(text("line 1\nline 2\t✓")), true);
  assertEquals(isPlainText(bytes(0x61, 0x00, 0x62)), false);
  assertEquals(isPlainText(bytes(0xc3, 0x28)), false);
  assertEquals(isPlainText(bytes(0xff, 0xfe)), false);
});
