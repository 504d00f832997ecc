import { assertEquals, assertThrows } from "../../tests/_helpers/assert.ts";
import {
  ARCHIVE_MAGIC,
  ArchiveDecoder,
  ArchiveError,
  compareSchema,
  countLines,
  type DecodedEvent,
  defaultBackupName,
  encodePartHeader,
  u32,
} from "./archive_format.ts";
import { concatBytes } from "../bytes.ts";

function bytes(...parts: Array<Uint8Array | string>): Uint8Array {
  return concatBytes(
    parts.map((p) => typeof p === "string" ? new TextEncoder().encode(p) : p),
  );
}

const SUM = new Uint8Array(32).fill(0xab);
const ARCHIVE = bytes(
  ARCHIVE_MAGIC,
  encodePartHeader({ kind: "table", name: "accounts" }),
  u32(3),
  "abc",
  u32(0),
  SUM,
  encodePartHeader({ kind: "manifest", name: "manifest" }),
  u32(2),
  "{}",
  u32(0),
  SUM,
);

function decodeInPieces(archive: Uint8Array, size: number): DecodedEvent[] {
  const decoder = new ArchiveDecoder();
  const events: DecodedEvent[] = [];
  for (let at = 0; at < archive.length; at += size) {
    events.push(...decoder.push(archive.slice(at, at + size)));
  }
  decoder.finish();
  return events;
}

Deno.test("ArchiveDecoder reads the same parts whatever the chunking", () => {
  const whole = decodeInPieces(ARCHIVE, ARCHIVE.length).filter((e) => e.type !== "data");
  for (const size of [1, 2, 7, 64]) {
    const events = decodeInPieces(ARCHIVE, size);
    assertEquals(events.filter((e) => e.type !== "data"), whole);
    const data = events.filter((e) => e.type === "data" && e.header.name === "accounts")
      .map((e) => new TextDecoder().decode((e as { bytes: Uint8Array }).bytes)).join("");
    assertEquals(data, "abc");
  }
  assertEquals(whole.map((e) => e.type), ["start", "end", "start", "end"]);
});

Deno.test("ArchiveDecoder names the part where a truncated archive ends", () => {
  const decoder = new ArchiveDecoder();
  [...decoder.push(ARCHIVE.slice(0, 57))];
  const error = assertThrows(() => decoder.finish(), ArchiveError);
  assertEquals(error.message, 'it is truncated: it ends in table "accounts", before its manifest');
});

Deno.test("ArchiveDecoder refuses what is not a backup", () => {
  const decoder = new ArchiveDecoder();
  assertThrows(
    () => [...decoder.push(new TextEncoder().encode("PK\x03\x04 a zip file"))],
    ArchiveError,
  );
});

Deno.test("compareSchema() finds migrations newer than the code and those to apply", () => {
  assertEquals(compareSchema(["a", "b", "z"], ["a", "b", "c"]), { unknown: ["z"], pending: ["c"] });
  assertEquals(compareSchema(["a"], ["a", "b"]), { unknown: [], pending: ["b"] });
});

Deno.test("defaultBackupName() is shop-<UTC yyyymmdd-hhmmss>.backup", () => {
  assertEquals(
    defaultBackupName(new Date("2026-11-27T22:33:24.123Z")),
    "shop-20261127-223324.backup",
  );
});

Deno.test("countLines() counts rows of COPY text (escaped newlines are not rows)", () => {
  assertEquals(countLines(new TextEncoder().encode("a\\nb\tc\nd\n")), 2);
});
