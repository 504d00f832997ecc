import { assertEquals, assertRejects } from "../_helpers/assert.ts";
import { createLocalFileStorage } from "../../app/files/storage.ts";
import { systemIds } from "../../app/ids.ts";

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

Deno.test("local storage puts, gets and deletes bytes under its root", async () => {
  const root = await Deno.makeTempDir({ prefix: "files-storage-" });
  try {
    const storage = createLocalFileStorage(root, systemIds);
    const size = await storage.put(
      "member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png",
      streamOf("hello"),
    );
    assertEquals(size, 5);
    const stream = await storage.get("member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png");
    assertEquals(await new Response(stream).text(), "hello");
    await storage.delete("member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png");
    assertEquals(await storage.get("member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png"), undefined);
    await storage.delete("member/0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.png");
    assertEquals([...Deno.readDirSync(`${root}/member`)].length, 0, "no partial files left");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("local storage refuses keys that could leave its root", async () => {
  const root = await Deno.makeTempDir({ prefix: "files-storage-" });
  try {
    const storage = createLocalFileStorage(root, systemIds);
    for (
      const key of ["../x.png", "/etc/passwd.txt", "a/../../x.png", "a\\..\\x.png", "a/./x.png", ""]
    ) {
      await assertRejects(() => storage.put(key, streamOf("x")));
      await assertRejects(() => storage.get(key));
      await assertRejects(() => storage.delete(key));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
