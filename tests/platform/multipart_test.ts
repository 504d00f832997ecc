/** The multipart parser of uploads (server/middleware/multipart.ts) against real encodings. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { boundaryOf, parseMultipart } from "../../server/middleware/multipart.ts";

async function encode(form: FormData): Promise<{ body: Uint8Array; boundary: string }> {
  const response = new Response(form);
  const boundary = boundaryOf(response.headers.get("Content-Type")!)!;
  return { body: new Uint8Array(await response.arrayBuffer()), boundary };
}

Deno.test("parts of a runtime-encoded form: text fields and a binary file, as views", async () => {
  const binary = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
  binary.set(new TextEncoder().encode("\r\n--"), 100); // A near-delimiter inside the content.
  const form = new FormData();
  form.set("entityType", "member");
  form.set("note", 'héllo "quoted"\r\nline');
  form.set("file", new Blob([binary], { type: "image/png" }), 'we"ird.png');
  const { body, boundary } = await encode(form);
  const parts = parseMultipart(body, boundary)!;
  assertEquals(parts.map((p) => p.name), ["entityType", "note", "file"]);
  assertEquals(new TextDecoder().decode(parts[0]!.content), "member");
  assertEquals(new TextDecoder().decode(parts[1]!.content), 'héllo "quoted"\r\nline');
  assertEquals(parts[0]!.filename, undefined);
  const file = parts[2]!;
  assertEquals(file.contentType, "image/png");
  assert(file.filename !== undefined);
  assertEquals(file.content, binary);
  assert(file.content.buffer === body.buffer, "the content is a view, not a copy");
});

Deno.test("empty file, quoted boundary, preamble and epilogue", () => {
  const text = 'preamble\r\n--b1\r\nContent-Disposition: form-data; name="file"; ' +
    'filename=""\r\n\r\n\r\n--b1\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--b1--\r\nepilogue';
  const parts = parseMultipart(
    new TextEncoder().encode(text),
    boundaryOf('multipart/form-data; boundary="b1"')!,
  )!;
  assertEquals(parts.length, 2);
  assertEquals(parts[0]!.content.length, 0);
  assertEquals(parts[0]!.filename, "");
  assertEquals(parts[1]!.name, "a");
});

Deno.test("malformed bodies are refused (undefined), never thrown on", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  for (
    const body of [
      "",
      "--x--",
      "no delimiter at all",
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue without end',
      '--x\r\nContent-Disposition: attachment; name="a"\r\n\r\nv\r\n--x--',
      "--x\r\nno-colon-header\r\n\r\nv\r\n--x--",
      "--x\r\n\r\nv\r\n--x--",
      "--xgarbage",
    ]
  ) {
    const parsed = parseMultipart(enc(body), "x");
    assert(parsed === undefined || (body === "--x--" && parsed.length === 0), JSON.stringify(body));
  }
  assertEquals(boundaryOf("multipart/form-data"), undefined);
  const many = Array.from(
    { length: 70 },
    (_, i) => `--x\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
  ).join("") + "--x--";
  assertEquals(parseMultipart(enc(many), "x"), undefined, "too many parts");
});
