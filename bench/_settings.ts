/**
 * The bench's settings, read once from the environment (see `run.ts` for what each means),
 * and the scenarios they select.
 */
import type { Scenario, TimedScenario } from "./scenarios/_scenario.ts";
import { SCENARIOS } from "./scenarios/mod.ts";

/** The repository root (children run from it, results are written below it). */
export const ROOT = new URL("../", import.meta.url).pathname;
export const DURATION_S = Number(Deno.env.get("BENCH_DURATION") ?? 10);
/**
 * Warm-up before each measured load. The server's code takes seconds to settle: a scan
 * endpoint on this 2-core machine went 2,900 → 5,100 → 5,500 → 6,700 req/s over its first four
 * 2-second runs, then stayed there; the bare stack, with far less code, starts near its
 * steady speed. After 3 s, the app's first round was still measured on the way up.
 */
export const WARMUP_S = Number(Deno.env.get("BENCH_WARMUP") ?? 8);
export const CONCURRENCY = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 10);
export const WRK_THREADS = Number(Deno.env.get("BENCH_WRK_THREADS") ?? 1);
/** HTTP and pgbench alternate in this many rounds sharing DURATION (see measureScenario). */
export const ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? 3));
const ONLY = Deno.env.get("BENCH_ONLY");
/** DB_POOL_SIZE for the server and the bare stack: their own default unless BENCH_DB_POOL_SIZE. */
export const POOL_SIZE_ENV: Record<string, string> = Deno.env.get("BENCH_DB_POOL_SIZE")
  ? { DB_POOL_SIZE: Deno.env.get("BENCH_DB_POOL_SIZE")! }
  : {};

// deno-lint-ignore no-explicit-any
export type AnyHttp = Scenario<any>;
// deno-lint-ignore no-explicit-any
export type AnyTimed = TimedScenario<any>;

/** The scenarios BENCH_ONLY selects (every one without it), in `scenarios/mod.ts` order. */
export const SELECTED = SCENARIOS.filter((s) =>
  !ONLY || ONLY.split(",").some((part) => s.name.toLowerCase().includes(part.trim().toLowerCase()))
);

export function isTimed(s: (typeof SCENARIOS)[number]): s is AnyTimed {
  return s.kind === "timed";
}
