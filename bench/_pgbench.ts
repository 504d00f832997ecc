/**
 * pgbench running a scenario's SQL at the bench's concurrency: prepared statements (as
 * postgres.js sends them), the app's session settings for the statement (page queries
 * planned on every run, see app/db/connect.ts), per-transaction log for p50/p99.
 */

import { isPageQuery, isPlannedOnce } from "../app/db/page_statements.ts";
import { postgresTarget } from "../app/db/postgres_client.ts";
import { percentile, round2 } from "./_load.ts";

export interface PgbenchResult {
  transactions: number;
  tps: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

export function pgbenchPath(): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/pgbench`).isFile) return `${dir}/pgbench`;
    } catch {
      // Not here.
    }
  }
  const versions = [...Deno.readDirSync("/usr/lib/postgresql")].map((e) => e.name).sort();
  return `/usr/lib/postgresql/${versions.at(-1)}/bin/pgbench`;
}

export async function runPgbench(options: {
  databaseUrl: string;
  script: string;
  defines?: Record<string, string>;
  concurrency: number;
  seconds: number;
}): Promise<PgbenchResult> {
  const dir = await Deno.makeTempDir({ prefix: "shop-pgbench-" });
  try {
    await Deno.writeTextFile(`${dir}/script.sql`, options.script);
    const url = new URL(options.databaseUrl);
    const defines = Object.entries(options.defines ?? {}).flatMap(([k, v]) => ["-D", `${k}=${v}`]);
    const output = await new Deno.Command(pgbenchPath(), {
      args: [
        "-n",
        "-M",
        "prepared",
        "-c",
        String(options.concurrency),
        "-j",
        String(Math.min(options.concurrency, navigator.hardwareConcurrency || 2)),
        "-T",
        String(options.seconds),
        ...defines,
        "-f",
        `${dir}/script.sql`,
        "-l",
        "--log-prefix",
        `${dir}/log`,
        "-h",
        // The app's socket directory when the URL names one (app/db/postgres_client.ts).
        postgresTarget(options.databaseUrl).socketDir ?? url.hostname,
        "-p",
        url.port || "5432",
        "-U",
        decodeURIComponent(url.username || "postgres"),
        url.pathname.slice(1),
      ],
      env: {
        // The app's session settings for this statement (app/db/connect.ts): a page query is
        // planned for its values on every run unless its list plans it once, other statements
        // under PostgreSQL's default.
        ...(isPlannedOnce(options.script.trimStart())
          ? { PGOPTIONS: "-c plan_cache_mode=force_generic_plan" }
          : isPageQuery(options.script)
          ? { PGOPTIONS: "-c plan_cache_mode=force_custom_plan" }
          : {}),
        ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!output.success) {
      throw new Error(`pgbench failed: ${new TextDecoder().decode(output.stderr)}\n${text}`);
    }
    const tps = Number(/tps = ([\d.]+)/.exec(text)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(text)?.[1] ?? 0);
    // Per-transaction log lines: client_id transaction_no time_us script_no epoch epoch_us
    const latencies: number[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.name.startsWith("log")) continue;
      for (const line of (await Deno.readTextFile(`${dir}/${entry.name}`)).split("\n")) {
        const us = Number(line.split(" ")[2]);
        if (line && Number.isFinite(us)) latencies.push(us / 1000);
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    return {
      transactions: sorted.length,
      tps: Math.round(tps),
      p50Ms: round2(percentile(sorted, 0.5)),
      p99Ms: round2(percentile(sorted, 0.99)),
      failed,
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
