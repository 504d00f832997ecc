/**
 * The driver's watch over the database (app/db/reachability.ts), with a fake probe and short
 * timings: an operation that never settles is given up (503) once a probe finds the server
 * unreachable or restarted; a slow one on a reachable server is left alone.
 */
import { assert, assertEquals, assertRejects } from "../_helpers/assert.ts";
import { DATABASE_UNREACHABLE, errorCode } from "../../app/db/db_errors.ts";
import { type Probe, Reachability } from "../../app/db/reachability.ts";
import { toProblem } from "../../server/errors.ts";

const TIMINGS = { checkAfterMs: 40, probeTimeoutMs: 60 };

/** A probe answering with `uptimeMs` (a number), never (`"hang"`), or failing (`"refuse"`). */
class FakeProbe implements Probe {
  answer: number | "hang" | "refuse" = 60_000;
  calls = 0;
  resets = 0;

  uptimeMs(): Promise<number> {
    this.calls++;
    const answer = this.answer;
    if (answer === "hang") return new Promise(() => {});
    if (answer === "refuse") {
      return Promise.reject(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    }
    return Promise.resolve(answer);
  }

  reset(): Promise<void> {
    this.resets++;
    return Promise.resolve();
  }
}

const never = () => new Promise<never>(() => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withReachability(
  fn: (r: Reachability, probe: FakeProbe) => Promise<void>,
): Promise<void> {
  const probe = new FakeProbe();
  const reachability = new Reachability(probe, TIMINGS);
  try {
    await fn(reachability, probe);
  } finally {
    await reachability.close();
  }
}

Deno.test("an operation that never settles fails with 503 once the probe gets no answer", () =>
  withReachability(async (reachability, probe) => {
    probe.answer = "hang";
    const started = performance.now();
    const error = await assertRejects(() => reachability.watch(never()));
    const took = performance.now() - started;
    assertEquals(errorCode(error), DATABASE_UNREACHABLE);
    assertEquals(toProblem(error, "r").status, 503);
    assert(took < TIMINGS.checkAfterMs * 1.25 + TIMINGS.probeTimeoutMs + 100, `${took} ms`);
    assert(reachability.isDown);
    assertEquals(probe.resets, 1, "a probe connection that did not answer is dropped");
  }));

Deno.test("a slow operation on a reachable server is left alone", () =>
  withReachability(async (reachability, probe) => {
    const slow = reachability.watch(sleep(200).then(() => "done"));
    assertEquals(await slow, "done");
    assert(probe.calls >= 1, "it was checked");
    assert(!reachability.isDown);
  }));

Deno.test("an operation begun before the server restarted fails; later ones do not", () =>
  withReachability(async (reachability, probe) => {
    probe.answer = 1_000_000; // Up for long: nothing to fail.
    const old = reachability.watch(never());
    await sleep(TIMINGS.checkAfterMs * 2);
    probe.answer = 5; // Restarted 5 ms ago: the pending operation predates it.
    const error = await assertRejects(() => old);
    assertEquals(errorCode(error), DATABASE_UNREACHABLE);
    assert(!reachability.isDown);
    assertEquals(await reachability.watch(sleep(5).then(() => 1)), 1);
  }));

Deno.test("a refused connection marks the database down at once; a probe brings it back", () =>
  withReachability(async (reachability, probe) => {
    const inFlight = reachability.watch(never());
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    await assertRejects(() => reachability.watch(Promise.reject(refused)));
    assertEquals(errorCode(await assertRejects(() => inFlight)), DATABASE_UNREACHABLE);
    assert(reachability.isDown);

    probe.answer = "refuse";
    const calls = probe.calls;
    assertEquals(errorCode(await assertRejects(() => reachability.ready())), DATABASE_UNREACHABLE);
    assertEquals(probe.calls, calls + 1, "a new operation probes first");

    probe.answer = 60_000;
    await reachability.ready();
    assert(!reachability.isDown);
  }));

Deno.test("an operation given up while the server was gone does not mark it down again when its connect error comes late", () =>
  withReachability(async (reachability, probe) => {
    // A query queued on a connection that keeps reopening: given up (503) at the outage.
    let settleOld!: (error: Error) => void;
    const old = reachability.watch(new Promise<never>((_, reject) => (settleOld = reject)));
    const refused = () =>
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    await assertRejects(() => reachability.watch(Promise.reject(refused())));
    assertEquals(errorCode(await assertRejects(() => old)), DATABASE_UNREACHABLE);

    // The server is back; a new operation runs.
    await reachability.ready();
    assert(!reachability.isDown);
    let settleNew!: (value: string) => void;
    const fresh = reachability.watch(new Promise<string>((resolve) => (settleNew = resolve)));

    // Now the old query's own connect error arrives: only a probe decides, and it answers.
    const calls = probe.calls;
    settleOld(refused());
    await sleep(10);
    assert(!reachability.isDown, "the late error did not mark the database down");
    assertEquals(probe.calls, calls + 1, "it checked instead");
    settleNew("answered");
    assertEquals(await fresh, "answered");
  }));

Deno.test("waits for a connection are failed by whoever learns the database is down", () =>
  withReachability(async (reachability, probe) => {
    probe.answer = "hang";
    const failed: string[] = [];
    reachability.onDown((error) => failed.push(errorCode(error)!));
    const done = reachability.waiting(); // A wait that goes on: it makes the driver check.
    await sleep(TIMINGS.checkAfterMs * 1.5 + TIMINGS.probeTimeoutMs + 50);
    done();
    assertEquals(failed, [DATABASE_UNREACHABLE]);
  }));

Deno.test("lost connections make it check; a reachable server stays up", () =>
  withReachability(async (reachability, probe) => {
    const lost = Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
    await assertRejects(() => reachability.watch(Promise.reject(lost)));
    await sleep(10);
    assertEquals(probe.calls, 1);
    assert(!reachability.isDown);
  }));
