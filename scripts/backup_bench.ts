/**
 * Backup and restore at the size of issue 22: 100,000 accounts (with a member each), 200,000
 * products and 1,000,000 transaction lines (250,000 sales), seeded with INSERT … SELECT
 * generate_series into a throwaway PostgreSQL database; then `ops backup` and `ops restore`
 * (the real CLI, as child processes) are timed, PostgreSQL → PostgreSQL and, with
 * `--embedded`, PostgreSQL → embedded → the embedded backup. Not part of CI.
 *
 *   deno run -A scripts/backup_bench.ts [--embedded] [--scale 0.1]
 *
 * Server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 *
 * Measured 2026-11-27 on the 2-core development machine (PostgreSQL 15, 1,650,123 rows):
 * ops backup (PostgreSQL) 10.7 s, archive 85.0 MiB; ops restore into an empty PostgreSQL
 * database 40.2 s; ops restore into a new embedded database 71.5 s; ops backup (embedded)
 * 30.2 s, archive 85.0 MiB. (Before keys and indexes were built after loading, the PostgreSQL
 * restore took 140 s.)
 */
import postgres from "postgres";
import { openDatabase } from "../app/db/connect.ts";
import { migrateToLatest } from "../app/db/migrate.ts";
import { runSeeds } from "../app/seed.ts";
import { bulkStatements } from "../tests/backup/_bulk.ts";

const SERVER = Deno.env.get("BENCH_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/postgres";
const args = Deno.args;
const scale = Number(args[args.indexOf("--scale") + 1] ?? 1) || 1;
const embedded = args.includes("--embedded");
const ROOT = new URL("../", import.meta.url).pathname;

function urlOf(database: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  return url.toString();
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(44)} ${seconds.toFixed(1).padStart(7)} s`);
  return [result, seconds];
}

async function ops(cliArgs: string[], env: Record<string, string>): Promise<void> {
  const base = Deno.env.toObject();
  delete base.DATABASE_URL;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...cliArgs],
    cwd: ROOT,
    env: { ...base, NO_COLOR: "1", SHOP_ENV_FILE: "/dev/null", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`ops ${cliArgs.join(" ")} failed: ${text}`);
  console.log(`  ${text.trim()}`);
}

const admin = postgres(SERVER, { max: 1, onnotice: () => {} });
const tag = crypto.randomUUID().slice(0, 8);
const source = `shop_backup_bench_${tag}`;
const target = `shop_backup_bench_${tag}_restored`;
const work = await Deno.makeTempDir({ prefix: "shop-backup-bench-" });
const counts = {
  accounts: Math.round(100_000 * scale),
  products: Math.round(200_000 * scale),
  lines: Math.round(1_000_000 * scale),
};
console.log(
  `accounts ${counts.accounts}, products ${counts.products}, transaction lines ${counts.lines}`,
);
try {
  await admin.unsafe(`CREATE DATABASE "${source}"`);
  await admin.unsafe(`CREATE DATABASE "${target}"`);
  await timed("seed (migrate, seed, generate_series)", async () => {
    const handle = await openDatabase({ databaseUrl: urlOf(source) });
    try {
      await migrateToLatest(handle.db);
      await runSeeds(handle.db);
    } finally {
      await handle.close();
    }
    const sql = postgres(urlOf(source), { max: 1, onnotice: () => {} });
    try {
      for (const statement of bulkStatements(counts)) await sql.unsafe(statement);
      await sql.unsafe("VACUUM ANALYZE");
    } finally {
      await sql.end();
    }
  });
  const archive = `${work}/bench.backup`;
  const env = { DATA_DIR: `${work}/unused`, FILES_DIR: `${work}/files` };
  const [, backupSeconds] = await timed(
    "ops backup (PostgreSQL)",
    () => ops(["backup", "--out", archive], { ...env, DATABASE_URL: urlOf(source) }),
  );
  const size = (await Deno.stat(archive)).size;
  console.log(`${"archive size".padEnd(44)} ${(size / 1024 / 1024).toFixed(1).padStart(7)} MiB`);
  const [, restoreSeconds] = await timed(
    "ops restore (into an empty PostgreSQL database)",
    () => ops(["restore", archive], { ...env, DATABASE_URL: urlOf(target) }),
  );
  const results: Record<string, number> = { backupSeconds, restoreSeconds, archiveBytes: size };
  if (embedded) {
    const dataDir = `${work}/embedded`;
    const [, embeddedRestore] = await timed(
      "ops restore (into a new embedded database)",
      () => ops(["restore", archive], { DATA_DIR: dataDir, FILES_DIR: `${dataDir}/files` }),
    );
    const [, embeddedBackup] = await timed(
      "ops backup (embedded)",
      () =>
        ops(["backup", "--out", `${work}/embedded.backup`], {
          DATA_DIR: dataDir,
          FILES_DIR: `${dataDir}/files`,
        }),
    );
    results.embeddedRestoreSeconds = embeddedRestore;
    results.embeddedBackupSeconds = embeddedBackup;
    results.embeddedArchiveBytes = (await Deno.stat(`${work}/embedded.backup`)).size;
  }
  console.log(JSON.stringify(results));
} finally {
  await admin.unsafe(`DROP DATABASE IF EXISTS "${source}" WITH (FORCE)`).catch(() => {});
  await admin.unsafe(`DROP DATABASE IF EXISTS "${target}" WITH (FORCE)`).catch(() => {});
  await admin.end();
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
