/**
 * `BENCH_SCALE=small|shop10y deno task bench`: every list route at a shop's size
 * (`_list_routes.ts`) on a database seeded by `_scale_seed.ts`. `shop10y` seeds the small
 * setting and the large one, measures each case at both (BENCH_ROUNDS rounds, medians)
 * and prints them side by side: each case's p99 at the large size must stay under 50 ms, and
 * its p50 within 2× the small size's.
 *
 * BENCH_SCALE_DATABASE_URL measures an already seeded database instead (of the one scale
 * named, seeded by an earlier run with BENCH_SCALE_KEEP=1, which keeps its databases and prints
 * their URLs), and BENCH_SCALE_SMALL_DATABASE_URL the small size's with shop10y; without
 * BENCH_SCALE, the scenarios run over BENCH_SCALE_DATABASE_URL (`_db.ts`). BENCH_LIST_ONLY
 * limits the routes (text their path contains, `a,b` for either).
 */
import { openDatabase } from "../app/db/connect.ts";
import { migrateToLatest } from "../app/db/migrate.ts";
import { runSeeds } from "../app/seed.ts";
import { PERMISSIONS } from "../domain/auth/permissions.ts";
import { createBenchDatabase, EXISTING_DATABASE_URL, seedContext } from "./_db.ts";
import {
  caseKey,
  listCases,
  type ListMeasurement,
  type ListTarget,
  measureListCases,
  PlanCapture,
} from "./_list_routes.ts";
import { startServer, stop } from "./_processes.ts";
import { type ScaleName, scaleSamples, seedScale } from "./_scale_seed.ts";
import { CONCURRENCY, ROOT, ROUNDS } from "./_settings.ts";

const P99_TARGET_MS = 50;
const P50_GROWTH_LIMIT = 2;
const ONLY = Deno.env.get("BENCH_LIST_ONLY");

/** A seeded size with its server up, ready to be measured; `close()` stops and drops it. */
interface OpenSize extends ListTarget {
  close(): Promise<void>;
}

const VAULT_MASTER = "the size bench's master password";
/** Entries a new vault gets (the vault is not part of the bulk seed: they are encrypted). */
const VAULT_ENTRIES = 60;

/**
 * Initializes the vault of the server at `baseUrl` with a category of entries, or unlocks it
 * (a database seeded by an earlier run), so that its lists answer pages rather than 423; the
 * category's id.
 */
async function openVault(baseUrl: string, token: string): Promise<string> {
  const send = async (path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/v1${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.status === 204 ? undefined : await res.json().catch(() => undefined);
    return { status: res.status, json };
  };
  const init = await send("/vault/initialize", { masterPassword: VAULT_MASTER });
  if (init.status === 409) {
    const unlock = await send("/vault/unlock", { masterPassword: VAULT_MASTER });
    if (unlock.status !== 204) throw new Error(`vault unlock answered ${unlock.status}`);
    const categories = await send("/vault/categories");
    return categories.json.data[0].id;
  }
  if (init.status !== 201) throw new Error(`vault initialize answered ${init.status}`);
  const category = await send("/vault/categories", { name: "Suppliers' portals" });
  if (category.status !== 201) throw new Error(`vault category answered ${category.status}`);
  for (let n = 1; n <= VAULT_ENTRIES; n++) {
    const entry = await send("/vault/entries", {
      categoryId: category.json.id,
      name: `Supplier ${n} portal`,
      username: `shop${n}`,
      url: `https://supplier${n}.example.test`,
      secret: `secret ${n}`,
    });
    if (entry.status !== 201) throw new Error(`vault entry answered ${entry.status}`);
  }
  return category.json.id;
}

/**
 * Seeds `scale` into a new database (or opens `existingUrl`, seeded by an earlier run) and
 * starts a server on it.
 */
async function openSize(scale: ScaleName, existingUrl?: string): Promise<OpenSize> {
  const database = await createBenchDatabase(undefined, existingUrl);
  const keep = Deno.env.get("BENCH_SCALE_KEEP") === "1";
  const dataDir = await Deno.makeTempDir({ prefix: "shop-bench-scale-" });
  const children: Deno.ChildProcess[] = [];
  let plans: PlanCapture | undefined;
  const close = async () => {
    await plans?.close();
    for (const child of children) await stop(child);
    if (keep && !existingUrl) {
      console.log(`kept ${scale}: ${database.url}`);
      await database.keep();
    } else await database.drop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  };
  try {
    const handle = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
    let token: string;
    let samples;
    try {
      if (!existingUrl) {
        console.log(`seeding ${scale} into ${database.name} ...`);
        await migrateToLatest(handle.db);
        await runSeeds(handle.db);
        samples = await seedScale(handle.db, scale);
      } else {
        samples = await scaleSamples(handle.db, scale);
      }
      ({ token } = await seedContext(handle.db, dataDir).createUser(PERMISSIONS.map((p) => p.id)));
    } finally {
      await handle.close();
    }
    const server = await startServer(database.url, children);
    const openapi = await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json();
    const vaultCategoryId = await openVault(server.baseUrl, token);
    const cases = listCases(openapi, { ...samples, vaultCategoryId }).filter((c) =>
      !ONLY || ONLY.split(",").some((part) => c.route.includes(part.trim()))
    );
    plans = new PlanCapture(database.url, dataDir);
    await plans.unlockVault(token, VAULT_MASTER);
    return { baseUrl: server.baseUrl, token, cases, plans, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface ScaleRow {
  route: string;
  filter: string;
  rows: number | null;
  totalExact: boolean | null;
  status: number;
  small?: { p50Ms: number; p99Ms: number; reqPerSec: number };
  large?: { p50Ms: number; p99Ms: number; reqPerSec: number };
  plan: string;
  /**
   * p99 under 50 ms at the largest size measured, and (with both) p50 within 2× small's;
   * null when the route answered something else than a page (the vault locked: 423).
   */
  met: boolean | null;
}

function combine(small: ListMeasurement[], large: ListMeasurement[] | undefined): ScaleRow[] {
  const largeBy = new Map((large ?? []).map((m) => [caseKey(m), m]));
  return small.map((s) => {
    const l = largeBy.get(caseKey(s));
    const last = l ?? s;
    const figures = (m: ListMeasurement) => ({
      p50Ms: m.p50Ms,
      p99Ms: m.p99Ms,
      reqPerSec: m.reqPerSec,
    });
    const met = last.status === 423 ? null : last.status === 200 && last.p99Ms < P99_TARGET_MS &&
      (!l || l.p50Ms <= P50_GROWTH_LIMIT * s.p50Ms);
    return {
      route: s.route,
      filter: s.filter.split("=")[0]!,
      rows: last.rows,
      totalExact: last.totalExact,
      status: last.status,
      small: figures(s),
      large: l ? figures(l) : undefined,
      plan: last.plan,
      met,
    };
  });
}

function printTable(rows: ScaleRow[], scale: ScaleName): void {
  const header = scale === "shop10y"
    ? [
      "route",
      "filter",
      "rows",
      "small p50",
      "small p99",
      "large p50",
      "large p99",
      "×p50",
      "ok",
      "plan (large)",
    ]
    : ["route", "filter", "rows", "p50", "p99", "ok", "plan"];
  const lines = rows.map((r) => {
    const rowsText = r.rows === null
      ? `(${r.status})`
      : `${r.totalExact === false ? "~" : ""}${r.rows}`;
    const common = [r.route, r.filter, rowsText];
    if (scale === "shop10y") {
      const growth = r.large && r.small ? (r.large.p50Ms / r.small.p50Ms).toFixed(2) : "";
      return [
        ...common,
        String(r.small?.p50Ms ?? ""),
        String(r.small?.p99Ms ?? ""),
        String(r.large?.p50Ms ?? ""),
        String(r.large?.p99Ms ?? ""),
        growth,
        r.met === null ? "n/a" : r.met ? "yes" : "NO",
        r.plan,
      ];
    }
    return [
      ...common,
      String(r.small?.p50Ms),
      String(r.small?.p99Ms),
      r.met === null ? "n/a" : r.met ? "yes" : "NO",
      r.plan,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => i === cells.length - 1 ? c : c.padEnd(widths[i]!)).join("  ");
  console.log(`\nList routes at ${scale}, ${CONCURRENCY} clients (ms; ~ = estimated total)`);
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  const judged = rows.filter((r) => r.met !== null);
  const met = judged.filter((r) => r.met).length;
  const locked = rows.length - judged.length;
  console.log(
    `${met} of ${judged.length} cases meet the targets` +
      (locked ? ` (${locked} more answer 423: the vault is locked)` : ""),
  );
}

/**
 * `small`: the small size; `shop10y`: both sizes, each on its own server, every case measured
 * at one then the other in each round (`measureListCases`). BENCH_SCALE_DATABASE_URL is the
 * named size's database seeded by an earlier run, and, with shop10y,
 * BENCH_SCALE_SMALL_DATABASE_URL the small one's; a size without one is seeded first.
 */
export async function runScaleBench(scale: ScaleName, wrk: string): Promise<void> {
  const sizes: Array<[ScaleName, string | undefined]> = scale === "shop10y"
    ? [["small", Deno.env.get("BENCH_SCALE_SMALL_DATABASE_URL") || undefined], [
      "shop10y",
      EXISTING_DATABASE_URL,
    ]]
    : [["small", EXISTING_DATABASE_URL]];
  const open: OpenSize[] = [];
  let measured: ListMeasurement[][];
  try {
    for (const [size, existing] of sizes) open.push(await openSize(size, existing));
    console.log(
      `measuring ${open[0]!.cases.length} list cases at ${sizes.map(([s]) => s).join(" and ")}, ` +
        `${ROUNDS} round(s) ...`,
    );
    measured = await measureListCases({ wrk, targets: open, rounds: ROUNDS, log: console.log });
  } finally {
    for (const size of open) await size.close();
  }
  const rows = combine(measured[0]!, measured[1]);
  printTable(rows, scale);
  await Deno.mkdir(`${ROOT}bench/results`, { recursive: true });
  await Deno.writeTextFile(
    `${ROOT}bench/results/scale-${scale}.json`,
    JSON.stringify(
      { scale, concurrency: CONCURRENCY, at: new Date().toISOString(), rows },
      null,
      2,
    ),
  );
}
