/**
 * A closed-loop HTTP load generator: `concurrency` workers, each sending its next request as
 * soon as the previous answer is read (keep-alive fetch), for `durationMs`.
 */
import type { BenchRequest } from "./scenarios/_scenario.ts";

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The value at fraction `p` of an ascending array (0 when empty). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Rounded to 2 decimals, as the bench reports milliseconds and ratios. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

export async function runLoad(options: {
  baseUrl: string;
  concurrency: number;
  durationMs: number;
  request: (i: number) => BenchRequest;
  expectStatus?: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const end = started + options.durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const req = options.request(next++);
      const t0 = performance.now();
      try {
        const res = await fetch(options.baseUrl + req.path, {
          method: req.method ?? "GET",
          headers: req.headers,
          body: req.body,
        });
        await res.arrayBuffer();
        if (res.status !== (options.expectStatus ?? 200)) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors,
    seconds: round2(seconds),
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: round2(percentile(sorted, 0.5)),
    p99Ms: round2(percentile(sorted, 0.99)),
    maxMs: round2(sorted[sorted.length - 1] ?? 0),
  };
}
