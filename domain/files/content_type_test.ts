import { assertEquals } from "../../tests/_helpers/assert.ts";
import { isPlainText, sniffUpload } from "./content_type.ts";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

Deno.test("sniffUpload() recognises JPEG, PNG, GIF, WebP and PDF by their first bytes", () => {
  assertEquals(sniffUpload(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0), null)?.contentType, "image/jpeg");
  assertEquals(
    sniffUpload(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), null)?.contentType,
    "image/png",
  );
  assertEquals(sniffUpload(text("GIF89a...."), null)?.contentType, "image/gif");
  assertEquals(sniffUpload(text("GIF87a...."), null)?.contentType, "image/gif");
  assertEquals(sniffUpload(text("RIFF\x10\x00\x00\x00WEBPVP8 "), null)?.contentType, "image/webp");
  assertEquals(sniffUpload(text("%PDF-1.7\n"), null)?.extension, "pdf");
});

Deno.test("sniffUpload() refuses other formats whatever the category", () => {
  assertEquals(sniffUpload(text("<svg xmlns='http://www.w3.org/2000/svg'/>"), null), undefined);
  assertEquals(sniffUpload(text("<html><script>alert(1)</script>"), "profile"), undefined);
  assertEquals(sniffUpload(text("RIFF\x10\x00\x00\x00WAVEfmt "), null), undefined);
  assertEquals(sniffUpload(bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00), "notes"), undefined); // zip
  assertEquals(sniffUpload(bytes(), null), undefined);
});

Deno.test("sniffUpload() accepts plain text only in the notes category", () => {
  assertEquals(sniffUpload(text("hello, café"), "notes")?.contentType, "text/plain; charset=utf-8");
  assertEquals(sniffUpload(text("hello"), null), undefined);
  assertEquals(sniffUpload(text("hello"), "profile"), undefined);
});

Deno.test("isPlainText() refuses NUL bytes and invalid UTF-8", () => {
  assertEquals(isPlainText(text("line 1\nline 2\t✓")), true);
  assertEquals(isPlainText(bytes(0x61, 0x00, 0x62)), false);
  assertEquals(isPlainText(bytes(0xc3, 0x28)), false);
  assertEquals(isPlainText(bytes(0xff, 0xfe)), false);
});
