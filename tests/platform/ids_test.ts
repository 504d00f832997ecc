/** UUIDv7 ids: clock ids sort in the order they were made, also within one millisecond. */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { clockIds, isUuid, uuidv7 } from "../../app/ids.ts";

Deno.test("ids made in one millisecond sort in the order they were made, as valid UUIDv7s", () => {
  const source = clockIds();
  const ids = Array.from({ length: 5_000 }, () => source.uuid());
  assertEquals([...ids].sort(), ids);
  assertEquals(new Set(ids).size, ids.length);
  for (const id of ids.slice(0, 50)) {
    assert(isUuid(id), id);
    assertEquals(id[14], "7", id);
    assert("89ab".includes(id[19]!), id);
  }
});

Deno.test("an id for a given time carries that time (the built-in lookups' fixed order)", () => {
  const base = Date.UTC(2000, 0, 1);
  const [a, b] = [uuidv7(base + 1), uuidv7(base)];
  assertEquals(parseInt(a.slice(0, 8) + a.slice(9, 13), 16), base + 1);
  assertEquals(parseInt(b.slice(0, 8) + b.slice(9, 13), 16), base);
});

Deno.test("a clock that steps back or stands still keeps the ids in order", () => {
  const times = [1_000, 1_000, 999, 1_000, 1_002];
  const source = clockIds(() => times.shift()!);
  const ids = Array.from({ length: 5 }, () => source.uuid());
  assertEquals([...ids].sort(), ids);
  assertEquals(ids.map((id) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16)), [
    1_000,
    1_000,
    1_000,
    1_000,
    1_002,
  ]);
});
