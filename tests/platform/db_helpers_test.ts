/** Pure helpers of app/db: the timestamp formatter and the connection slots. */
import fc from "fast-check";
import { assert, assertEquals, assertRejects, assertThrows } from "../_helpers/assert.ts";
import { UnavailableError } from "../../domain/errors.ts";
import { translateDatabaseError } from "../../app/db/db_errors.ts";
import { isoString } from "../../app/db/rows.ts";
import { ConnectionSlots } from "../../app/db/connection_slots.ts";

Deno.test("isoString() writes exactly what toISOString() writes, for any date", () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date(-8_640_000_000_000_000), max: new Date(8_640_000_000_000_000) }),
      (date) => {
        fc.pre(!Number.isNaN(date.getTime()));
        assertEquals(isoString(date), date.toISOString());
        assertEquals(isoString(date.toISOString()), date.toISOString());
      },
    ),
    { numRuns: 5_000 },
  );
  assertEquals(isoString(new Date("2026-01-02T03:04:05.006Z")), "2026-01-02T03:04:05.006Z");
  assertEquals(isoString("2026-11-21 12:34:56.789123+00"), "2026-11-21T12:34:56.789Z");
  // An invalid date throws, as toISOString() does.
  assertThrows(() => isoString(new Date(Number.NaN)), RangeError);
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("connection slots: at most `size` holders, the rest served in arrival order", async () => {
  const slots = new ConnectionSlots(2, 1_000);
  await slots.acquire();
  await slots.acquire();
  assertEquals(slots.free, 0);
  const served: number[] = [];
  const waiting = [1, 2, 3].map((n) => slots.acquire().then(() => served.push(n)));
  await tick();
  assertEquals(served, []);
  assertEquals(slots.waiting, 3);
  slots.release();
  await tick();
  assertEquals(served, [1]);
  slots.release();
  slots.release();
  await Promise.all(waiting);
  assertEquals(served, [1, 2, 3]);
  assertEquals(slots.free, 0, "each release handed its slot to a waiter");
  slots.release();
  slots.release();
  assertEquals(slots.free, 2);
});

Deno.test("connection slots: a waiter gives up after the timeout with POOL_TIMEOUT", async () => {
  const slots = new ConnectionSlots(1, 30);
  await slots.acquire();
  const error = await assertRejects(() => slots.acquire());
  assertEquals((error as { code?: string }).code, "POOL_TIMEOUT");
  assertEquals(slots.waiting, 0);
  slots.release();
  assertEquals(slots.free, 1, "the timed-out waiter took no slot");
});

Deno.test("a connection wait that timed out is answered 503 unavailable", () => {
  const error = translateDatabaseError(Object.assign(new Error("x"), { code: "POOL_TIMEOUT" }));
  assert(error instanceof UnavailableError, String(error));
});

Deno.test("connection slots: failWaiters() rejects every waiter with the error", async () => {
  const slots = new ConnectionSlots(1, 1_000);
  await slots.acquire();
  const unreachable = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
  const waiters = [slots.acquire(), slots.acquire()];
  slots.failWaiters(unreachable);
  for (const waiter of waiters) {
    assertEquals(await waiter.catch((error) => error), unreachable);
  }
  assertEquals(slots.waiting, 0);
  slots.release();
  assertEquals(slots.free, 1);
});
