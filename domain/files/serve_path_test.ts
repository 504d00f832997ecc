import { assertEquals } from "../../tests/_helpers/assert.ts";
import { parseServePath, storedFilePath } from "./serve_path.ts";

const id = "0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

Deno.test("parseServePath() accepts the paths storedFilePath() makes", () => {
  const path = storedFilePath("member", id, "png");
  assertEquals(path, `member/${id}.png`);
  assertEquals(parseServePath(path), { fileId: id, path });
});

Deno.test("parseServePath() refuses traversal, absolute paths and encodings", () => {
  for (
    const raw of [
      `../member/${id}.png`,
      `member/../${id}.png`,
      `/member/${id}.png`,
      `member/${id}.png/..`,
      `member%2f${id}.png`,
      `%2e%2e/member/${id}.png`,
      `%252e%252e/member/${id}.png`,
      `member\\${id}.png`,
      `member/${id}.png%00`,
      `member/${id}.png\0`,
      `member/${id}`,
      `member/${id}.PNG`,
      `MEMBER/${id}.png`,
      `member/sub/${id}.png`,
      "",
    ]
  ) {
    assertEquals(parseServePath(raw), undefined, raw);
  }
});
