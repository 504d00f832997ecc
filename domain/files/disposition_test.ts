import { assertEquals } from "../../tests/_helpers/assert.ts";
import { contentDisposition, downloadName } from "./disposition.ts";

Deno.test("downloadName() appends the served type's extension to a name of another type", () => {
  assertEquals(downloadName("invoice.html", "image/gif"), "invoice.html.gif");
  assertEquals(downloadName("report.exe", "application/pdf"), "report.exe.pdf");
  assertEquals(downloadName("Price list v1.2", "application/pdf"), "Price list v1.2.pdf");
  assertEquals(downloadName("notes.html", "text/plain; charset=utf-8"), "notes.html.txt");
});

Deno.test("downloadName() gives a name without an extension the served type's", () => {
  assertEquals(downloadName("scan", "image/jpeg"), "scan.jpg");
  assertEquals(downloadName("logo", "image/png"), "logo.png");
  assertEquals(downloadName("invoice.", "image/gif"), "invoice.gif");
  assertEquals(downloadName("...", "image/webp"), "file.webp");
});

Deno.test("downloadName() keeps a name that already has one of the type's extensions", () => {
  assertEquals(downloadName("Price list.pdf", "application/pdf"), "Price list.pdf");
  assertEquals(downloadName("PHOTO.JPG", "image/jpeg"), "PHOTO.JPG");
  assertEquals(downloadName("photo.jpeg", "image/jpeg"), "photo.jpeg");
  assertEquals(downloadName("Tour é.gif", "IMAGE/GIF"), "Tour é.gif");
  assertEquals(downloadName("a.pdf ", "application/pdf"), "a.pdf");
  assertEquals(downloadName("todo.txt", "text/plain; charset=utf-8"), "todo.txt");
  assertEquals(downloadName("data.bin", "application/x-unknown"), "data.bin");
});

Deno.test("contentDisposition() cannot be broken by a name and keeps it exactly in filename*", () => {
  assertEquals(
    contentDisposition('Price "list" é.pdf', "application/pdf"),
    `inline; filename="Price _list_ _.pdf"; filename*=UTF-8''Price%20%22list%22%20%C3%A9.pdf`,
  );
  assertEquals(contentDisposition("a;b\r\n.pdf", "application/pdf").includes("\r"), false);
});

Deno.test("contentDisposition() names the served type's extension in both forms", () => {
  assertEquals(
    contentDisposition("Facture é.html", "image/gif", "attachment"),
    `attachment; filename="Facture _.html.gif"; filename*=UTF-8''Facture%20%C3%A9.html.gif`,
  );
});
