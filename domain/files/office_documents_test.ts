import { assertEquals } from "../../tests/_helpers/assert.ts";
import { DOCX, ODS, ODT, openDocument, XLSX, zip } from "../../tests/_helpers/zip.ts";
import { sniffOfficeDocument, zipEntryNames } from "./office_documents.ts";

Deno.test("sniffOfficeDocument() tells docx, xlsx, odt and ods from their ZIP containers", () => {
  assertEquals(sniffOfficeDocument(DOCX), "docx");
  assertEquals(sniffOfficeDocument(XLSX), "xlsx");
  assertEquals(sniffOfficeDocument(ODT), "odt");
  assertEquals(sniffOfficeDocument(ODS), "ods");
  // An archive comment does not hide the directory.
  const commented = zip([["[Content_Types].xml", "<Types/>"], ["word/document.xml", "<d/>"]], "hi");
  assertEquals(sniffOfficeDocument(commented), "docx");
});

Deno.test("sniffOfficeDocument() refuses other ZIPs, macros and broken archives", () => {
  const cases: Array<[string, Uint8Array]> = [
    ["a plain zip", zip([["readme.txt", "hello"]])],
    ["a zip of an executable", zip([["setup.exe", "MZ\x90\x00"]])],
    ["OOXML without its content types", zip([["word/document.xml", "<d/>"]])],
    ["a PowerPoint", zip([["[Content_Types].xml", "<Types/>"], ["ppt/presentation.xml", "<p/>"]])],
    [
      "Word with macros",
      zip([
        ["[Content_Types].xml", "<Types/>"],
        ["word/document.xml", "<d/>"],
        ["word/vbaProject.bin", "\xd0\xcf"],
      ]),
    ],
    ["Excel with macros", zip([["[Content_Types].xml", "<T/>"], ["xl/vbaProject.bin", "x"]])],
    [
      "OpenDocument with Basic macros",
      openDocument("application/vnd.oasis.opendocument.text", [[
        "Basic/Standard/Module1.xml",
        "x",
      ]]),
    ],
    [
      "an OpenDocument presentation",
      openDocument("application/vnd.oasis.opendocument.presentation"),
    ],
    [
      "an OpenDocument without content",
      zip([["mimetype", "application/vnd.oasis.opendocument.text"]]),
    ],
    ["a mimetype that is not first", zip([["content.xml", "<c/>"], ["mimetype", "x"]])],
    ["a truncated archive", DOCX.subarray(0, DOCX.length - 30)],
    ["nothing", new Uint8Array()],
  ];
  for (const [what, bytes] of cases) assertEquals(sniffOfficeDocument(bytes), undefined, what);
});

Deno.test("zipEntryNames() reads the central directory and refuses inconsistent ones", () => {
  assertEquals(zipEntryNames(XLSX), [
    "[Content_Types].xml",
    "_rels/.rels",
    "xl/workbook.xml",
    "xl/worksheets/sheet1.xml",
  ]);
  // An entry count the directory does not hold, or a directory past the end record.
  const lying = DOCX.slice();
  lying[lying.length - 12] = 9; // entries on this disk
  lying[lying.length - 10] = 9; // entries in all
  assertEquals(zipEntryNames(lying), undefined);
  const pastEnd = DOCX.slice();
  pastEnd[pastEnd.length - 6] = 0xff; // directory offset
  assertEquals(zipEntryNames(pastEnd), undefined);
  assertEquals(zipEntryNames(new TextEncoder().encode("PK\x03\x04 not really a zip")), undefined);
});
