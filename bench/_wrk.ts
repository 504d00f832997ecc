/**
 * HTTP load with `wrk` (C, epoll, keep-alive): like pgbench's client it costs the machine
 * almost nothing, so on a 2-core box the server and PostgreSQL keep the CPU. A plain GET with
 * fixed headers is sent with `-H`; anything else (other methods, bodies, a different request
 * each time) through a Lua script reading pre-built raw requests from a file, each sent once
 * in order (threads take every T-th), starting at `offset` (so a measured run follows its
 * warm-up without repeating a request).
 */
import { concatBytes } from "../domain/bytes.ts";
import type { BenchRequest } from "./scenarios/_scenario.ts";
import type { LoadResult } from "./_load.ts";

export interface WrkResult extends LoadResult {
  /** Index of the next unused request (dynamic runs). */
  nextOffset: number;
  /** The request list ran out and wrapped around (requests were repeated). */
  wrapped: boolean;
}

function onPath(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (dir && Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

async function quiet(cmd: string, args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      stdout: "null",
      stderr: "null",
      env: { DEBIAN_FRONTEND: "noninteractive" },
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * The `wrk` binary, installed with apt-get (Debian package `wrk`) when missing and allowed
 * (BENCH_INSTALL_WRK=0 forbids it). `note` explains a fallback.
 */
export async function findWrk(): Promise<{ path?: string; note?: string }> {
  const found = onPath("wrk");
  if (found) return { path: found };
  if (Deno.env.get("BENCH_INSTALL_WRK") !== "0" && onPath("apt-get")) {
    console.log("wrk is missing: apt-get install -y wrk ...");
    if (
      !(await quiet("apt-get", ["install", "-y", "wrk"])) &&
      (await quiet("apt-get", ["update"]))
    ) {
      await quiet("apt-get", ["install", "-y", "wrk"]);
    }
    const installed = onPath("wrk");
    if (installed) return { path: installed };
  }
  return {
    note: "wrk is not installed and could not be installed (apt-get install -y wrk): HTTP " +
      "load used the Deno fetch generator, which takes CPU from the server on this machine — " +
      "ratios are lower than with wrk",
  };
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function durationMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text ?? "");
  if (!match) return NaN;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]! * 100) / 100;
}

/** wrk's text report → LoadResult. */
export function parseWrkOutput(text: string): LoadResult {
  const requests = Number(/(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(text)?.[1] ?? 0);
  const secondsMatch = /\d+ requests in ([\d.]+(?:us|ms|s|m))/.exec(text);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const latencyLine = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(text);
  return {
    requests,
    errors: non2xx + socketErrors,
    seconds: Math.round(durationMs(secondsMatch?.[1]) / 10) / 100,
    requestsPerSecond: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0)),
    p50Ms: durationMs(/^\s*50%\s+(\S+)/m.exec(text)?.[1]),
    p99Ms: durationMs(/^\s*99%\s+(\S+)/m.exec(text)?.[1]),
    maxMs: durationMs(latencyLine?.[3]),
  };
}

function rawRequest(host: string, req: BenchRequest): string {
  const body = req.body ?? "";
  let head = `${req.method ?? "GET"} ${req.path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(req.headers ?? {})) head += `${name}: ${value}\r\n`;
  if (body !== "" || (req.method ?? "GET") !== "GET") {
    head += `Content-Length: ${new TextEncoder().encode(body).length}\r\n`;
  }
  return `${head}\r\n${body}`;
}

/** Length-prefixed raw requests: `<bytes>\n<request>` repeated. */
function requestFile(host: string, requests: readonly BenchRequest[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts = requests.map((req) => {
    const raw = encoder.encode(rawRequest(host, req));
    return [encoder.encode(`${raw.length}\n`), raw];
  }).flat();
  return concatBytes(parts);
}

function luaScript(expectStatus: number | undefined): string {
  const checkStatus = expectStatus !== undefined && (expectStatus < 200 || expectStatus >= 400);
  return `
local reqs, n = {}, 0
local idx, step = 0, 1
-- Globals (not locals): done() reads them from each thread with thread:get().
last, bad = -1, 0
local threads, created = {}, 0
function setup(thread)
  thread:set("tid", created)
  created = created + 1
  table.insert(threads, thread)
end
function init(args)
  local f = assert(io.open(os.getenv("WRK_REQUESTS"), "rb"))
  local data = f:read("*a")
  f:close()
  local pos = 1
  while pos <= #data do
    local nl = data:find("\\n", pos, true)
    local len = tonumber(data:sub(pos, nl - 1))
    n = n + 1
    reqs[n] = data:sub(nl + 1, nl + len)
    pos = nl + 1 + len
  end
  step = tonumber(os.getenv("WRK_STEP"))
  idx = tonumber(os.getenv("WRK_OFFSET")) + tid
end
function request()
  last = idx
  idx = idx + step
  return reqs[last % n + 1]
end
${
    checkStatus
      ? `function response(status, headers, body)
  if status ~= ${expectStatus} then bad = bad + 1 end
end`
      : ""
  }
function done(summary, latency, requests)
  local maxLast, totalBad = -1, 0
  for _, t in ipairs(threads) do
    local l = t:get("last")
    if l > maxLast then maxLast = l end
    totalBad = totalBad + (t:get("bad") or 0)
  end
  io.write(string.format("WRK_LAST %d\\nWRK_BAD %d\\n", maxLast, totalBad))
end
`;
}

/**
 * Runs wrk for `seconds`. `requests` holds one request (sent every time) or the ordered list
 * of distinct requests (sent once each from `offset`).
 */
export async function runWrk(options: {
  wrk: string;
  baseUrl: string;
  requests: readonly BenchRequest[];
  offset?: number;
  concurrency: number;
  threads: number;
  seconds: number;
  expectStatus?: number;
}): Promise<WrkResult> {
  const url = new URL(options.baseUrl);
  const first = options.requests[0]!;
  const plainGet = options.requests.length === 1 && (first.method ?? "GET") === "GET" &&
    !first.body && (options.expectStatus ?? 200) < 400;
  const threads = Math.max(1, Math.min(options.threads, options.concurrency));
  const args = [
    "-t",
    String(threads),
    "-c",
    String(options.concurrency),
    "-d",
    // wrk takes whole seconds only (BENCH_DURATION=5 over 3 rounds would be 1.67 s).
    `${Math.max(1, Math.round(options.seconds))}s`,
    "--latency",
  ];
  const env: Record<string, string> = {};
  let dir: string | undefined;
  if (plainGet) {
    for (const [name, value] of Object.entries(first.headers ?? {})) {
      args.push("-H", `${name}: ${value}`);
    }
    args.push(`${url.origin}${first.path}`);
  } else {
    dir = await Deno.makeTempDir({ prefix: "shop-wrk-" });
    await Deno.writeFile(`${dir}/requests`, requestFile(url.host, options.requests));
    await Deno.writeTextFile(`${dir}/script.lua`, luaScript(options.expectStatus));
    env["WRK_REQUESTS"] = `${dir}/requests`;
    env["WRK_OFFSET"] = String(options.offset ?? 0);
    env["WRK_STEP"] = String(threads);
    args.push("-s", `${dir}/script.lua`, `${url.origin}/`);
  }
  try {
    const output = await new Deno.Command(options.wrk, {
      args,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!output.success) {
      throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}\n${text}`);
    }
    const result = parseWrkOutput(text);
    const last = Number(/WRK_LAST (-?\d+)/.exec(text)?.[1] ?? -1);
    const bad = Number(/WRK_BAD (\d+)/.exec(text)?.[1] ?? 0);
    // Expecting a 4xx/5xx: the script counts other statuses, wrk's non-2xx count is moot.
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
    const expectsFailure = (options.expectStatus ?? 200) >= 400;
    return {
      ...result,
      errors: expectsFailure ? result.errors - non2xx + bad : result.errors,
      nextOffset: plainGet ? 0 : last + 1,
      wrapped: !plainGet && last + 1 > options.requests.length,
    };
  } finally {
    if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
