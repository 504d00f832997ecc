/**
 * Every list route at a shop's size (issue 23 item 2): each `GET` whose answer is a page
 * (taken from the server's own OpenAPI document, so a new list is measured without being
 * listed here), its default page and then each documented filter alone, with a realistic value
 * from the seeded shop (a busy account, a hot product, the last 30 days, a common status).
 * Each case is sent once to read its status and `pagination.total`, then loaded with wrk at
 * BENCH_CONCURRENCY clients for BENCH_LIST_SECONDS (default 2), BENCH_ROUNDS times (default
 * 3) at each size in turn; the figures are the medians of the rounds. The page statement of each
 * case is captured in-process (the same app on a logging connection) and explained with its
 * values, and the plan's scans are summarised next to the figures.
 */
import { createDeps } from "../app/create_deps.ts";
import { loadConfig } from "../app/config.ts";
import { isPageQuery } from "../app/db/page_statements.ts";
import { createMemoryLogger } from "../app/logger.ts";
import { createAppWithRoutes } from "../server/app.ts";
import { customPlan, TracingDatabase } from "../tests/_helpers/query_plans.ts";
import { JWT_SECRET } from "./_db.ts";
import { foldRounds } from "./_rounds.ts";
import type { ScaleSamples } from "./_scale_seed.ts";
import { CONCURRENCY, WRK_THREADS } from "./_settings.ts";
import { runWrk, type WrkResult } from "./_wrk.ts";

/** The seeded shop's samples, and the vault's category (opened on the server: `_scale.ts`). */
export type ListSamples = ScaleSamples & { vaultCategoryId?: string };

export const LIST_SECONDS = Number(Deno.env.get("BENCH_LIST_SECONDS") ?? 2);

export interface ListCase {
  route: string;
  /** `default` or `name=value` of the one filter. */
  filter: string;
  path: string;
}

export interface ListMeasurement extends ListCase {
  status: number;
  rows: number | null;
  totalExact: boolean | null;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  plan: string;
}

type Schema = { type?: string; format?: string; enum?: string[]; anyOf?: Schema[] };
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Parameter[]; responses?: unknown }>>;
}

/** The search term a clerk would type on each list (by its first path segment). */
const SEARCH_TERMS: Record<string, string> = {
  products: "vintage bass",
  accounts: "smith",
  members: "alex",
  transactions: "gibson",
  "audit-log": "completed",
  "repair-tickets": "guitar",
  rentals: "smith",
  suppliers: "supplier 1",
  "lesson-sessions": "alex",
  enrollments: "alex",
};

/** The common value of each enum filter (the heavy case: most rows have it). */
const COMMON_VALUES = [
  "complete",
  "active",
  "attended",
  "picked_up",
  "in_stock",
  "sale",
  "standard",
  "open",
  "closed",
];

const PAGING = new Set(["page", "limit", "sort", "order"]);

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The value one filter gets, or undefined when the shop has nothing meaningful for it. */
function filterValue(
  route: string,
  parameter: Parameter,
  samples: ListSamples,
): string | undefined {
  const schema = parameter.schema?.anyOf?.[0] ?? parameter.schema ?? {};
  const name = parameter.name;
  const segment = route.split("/")[2] ?? "";
  const bySample: Record<string, string> = {
    accountId: samples.accountId,
    memberId: samples.memberId,
    productId: samples.productId,
    supplierId: samples.supplierId,
    categoryId: samples.categoryId,
    instructorId: samples.instructorId,
    lessonTypeId: samples.lessonTypeId,
    slotId: samples.slotId,
    enrollmentId: samples.enrollmentId,
    locationId: samples.locationId,
    registerId: samples.registerId,
    drawerSessionId: samples.drawerSessionId,
    parentId: samples.categoryId,
    serialNumber: samples.serialNumber,
  };
  if (name === "q") return SEARCH_TERMS[segment] ?? "new";
  // The files of an entity: the hot product's.
  if (name === "entityType" && segment === "files") return "product";
  if (name === "entityId" && segment === "files") return samples.productId;
  // Storage folders are not seeded: a parent would be a made-up id (404).
  if (name === "parentId" && segment === "storage") return undefined;
  if (name === "categoryId" && segment === "vault") return samples.vaultCategoryId;
  if (name === "itemSearch") return "gibson";
  if (name === "action") return "pos.transaction_completed";
  if (name === "entityType") return schema.enum ? schema.enum[0] : "transaction";
  if (name === "dayOfWeek") return "2";
  if (name === "from") return schema.format === "date-time" ? `${day(-30)}T00:00:00Z` : day(-30);
  if (name === "to") return schema.format === "date-time" ? `${day(1)}T00:00:00Z` : day(1);
  if (bySample[name]) return bySample[name];
  if (schema.enum) {
    if (schema.enum.includes("true")) return "true";
    return COMMON_VALUES.find((value) => schema.enum!.includes(value)) ?? schema.enum[0];
  }
  if (schema.format === "uuid") return crypto.randomUUID();
  if (name === "condition") return "good";
  if (name === "itemCategory") return "guitar";
  return undefined;
}

/** The path ids of nested lists: the record whose children are listed. */
function withPathIds(route: string, samples: ListSamples): string | undefined {
  const ids: Record<string, string> = {
    products: route.endsWith("/units") ? samples.serializedProductId : samples.productId,
    accounts: samples.accountId,
    members: samples.memberId,
    instructors: samples.instructorId,
    drawers: samples.drawerSessionId,
    "repair-tickets": samples.repairTicketId,
  };
  if (!route.includes("{")) return route;
  const id = ids[route.split("/")[2] ?? ""];
  return id ? route.replace(/\{[^}]+\}/, id) : undefined;
}

/** Every list route of the API and its filters, with the values above. */
export function listCases(openapi: OpenApi, samples: ListSamples): ListCase[] {
  const cases: ListCase[] = [];
  for (const [route, operations] of Object.entries(openapi.paths)) {
    const get = operations.get;
    if (!get || !JSON.stringify(get.responses ?? {}).includes("totalPages")) continue;
    const withIds = withPathIds(route, samples);
    if (!withIds) continue;
    // Required query parameters (the files of one entity) are part of every case.
    const required = (get.parameters ?? []).filter((p) => p.in === "query" && p.required);
    const requiredQuery = required.map((p) =>
      `${p.name}=${encodeURIComponent(filterValue(route, p, samples) ?? "")}`
    ).join("&");
    const base = requiredQuery ? `${withIds}?${requiredQuery}` : withIds;
    const join = requiredQuery ? "&" : "?";
    cases.push({ route, filter: "default", path: base });
    for (const parameter of get.parameters ?? []) {
      if (parameter.in !== "query" || PAGING.has(parameter.name) || parameter.required) continue;
      const value = filterValue(route, parameter, samples);
      if (value === undefined) continue;
      const filter = `${parameter.name}=${value}`;
      cases.push({
        route,
        filter: filter.length > 40 ? `${filter.slice(0, 37)}...` : filter,
        path: `${base}${join}${parameter.name}=${encodeURIComponent(value)}`,
      });
    }
  }
  return cases;
}

/** The in-process app on a connection that logs every statement (for the plans). */
export class PlanCapture {
  readonly #traced: TracingDatabase;
  readonly #app: ReturnType<typeof createAppWithRoutes>["app"];

  constructor(databaseUrl: string, dataDir: string) {
    this.#traced = new TracingDatabase(databaseUrl);
    const deps = createDeps({
      config: loadConfig({ APP_ENV: "test", JWT_SECRET, DATA_DIR: dataDir }),
      db: this.#traced.db,
      dbKind: "postgres",
      logger: createMemoryLogger(),
    });
    this.#app = createAppWithRoutes(deps).app;
  }

  /** Unlocks the vault of this in-process app too (its key is in each process's memory). */
  async unlockVault(token: string, masterPassword: string): Promise<void> {
    const res = await this.#app.request("/v1/vault/unlock", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ masterPassword }),
    });
    if (res.status !== 204) throw new Error(`vault unlock answered ${res.status}`);
  }

  /** The scans of the page statement `path` runs (e.g. `Index Scan transactions_created_idx`). */
  async planOf(path: string, token: string): Promise<string> {
    const statements = await this.#traced.queriesOf(async () => {
      const res = await this.#app.request(path, { headers: { Authorization: `Bearer ${token}` } });
      await res.body?.cancel();
    });
    const page = statements.find((q) => isPageQuery(q.sql)) ?? statements.at(-1);
    if (!page) return "(no statement)";
    const scans = new Set<string>();
    for (const line of (await customPlan(this.#traced.db, page)).split("\n")) {
      const match =
        /(Seq Scan|Index Only Scan|Index Scan Backward|Index Scan|Bitmap Index Scan)(?: using| on)? (\S+)/
          .exec(line);
      if (match) scans.add(`${match[1] === "Seq Scan" ? "SEQ " : ""}${match[2]}`);
    }
    return [...scans].slice(0, 4).join(", ");
  }

  close(): Promise<void> {
    return this.#traced.close();
  }
}

/** One size under measurement: its server, a token of a user allowed everything, its cases. */
export interface ListTarget {
  baseUrl: string;
  token: string;
  /** The cases with this size's sample values (the same routes and filters at every size). */
  cases: readonly ListCase[];
  plans: PlanCapture;
}

/** What tells a case from the others at any size (its path's sample values differ). */
export function caseKey(item: ListCase): string {
  return `${item.route} ${item.filter.split("=")[0]}`;
}

/**
 * Measures every case of the first target, at every target (wrk), with its plan there: `rounds`
 * loads of each case, one target after the other within a round, so the sizes of a case are
 * measured seconds apart (this machine drifts by tens of percent over minutes: measured one
 * size after the other, 10 minutes apart, small tables showed p50 ratios of 2.0–2.4 that the
 * next run did not); the rounds are folded as the scenarios' are (`foldRounds`: p50 and p99
 * the median of the rounds', req/s over all of them). Per target, its measurements in
 * the first target's order (a case missing at a target is left out there).
 */
export async function measureListCases(options: {
  wrk: string;
  targets: readonly ListTarget[];
  rounds: number;
  log?: (line: string) => void;
}): Promise<ListMeasurement[][]> {
  const { targets } = options;
  const results: ListMeasurement[][] = targets.map(() => []);
  const load = (target: ListTarget, paths: readonly string[], seconds: number) =>
    runWrk({
      wrk: options.wrk,
      baseUrl: target.baseUrl,
      requests: paths.map((path) => ({
        path,
        headers: { Authorization: `Bearer ${target.token}` },
      })),
      concurrency: CONCURRENCY,
      threads: WRK_THREADS,
      seconds,
    });
  // A warm-up of each server on all its cases in turn: its first seconds JIT-compile the
  // request path, and the other size's seeding may have pushed this one's tables out of memory.
  for (const target of targets) {
    if (target.cases.length > 0) await load(target, target.cases.map((c) => c.path), 5);
  }
  for (const first of targets[0]?.cases ?? []) {
    const key = caseKey(first);
    const at = targets.map((target) => target.cases.find((c) => caseKey(c) === key));
    // Each case sent once first at each size: its status and total (and its statement prepared).
    const answers = await Promise.all(targets.map(async (target, i) => {
      const item = at[i];
      if (!item) return undefined;
      const headers = { Authorization: `Bearer ${target.token}` };
      const res = await fetch(target.baseUrl + item.path, { headers });
      return { status: res.status, body: await res.json().catch(() => ({})) };
    }));
    const loads: WrkResult[][] = targets.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, target] of targets.entries()) {
        const item = at[i];
        if (item) loads[i]!.push(await load(target, [item.path], LIST_SECONDS));
      }
    }
    for (const [i, target] of targets.entries()) {
      const item = at[i];
      const answer = answers[i];
      if (!item || !answer) continue;
      const { status, body } = answer;
      const folded = foldRounds(loads[i]!);
      const measured: ListMeasurement = {
        ...item,
        status,
        rows: typeof body?.pagination?.total === "number" ? body.pagination.total : null,
        totalExact: body?.pagination?.totalExact ?? null,
        reqPerSec: folded.requestsPerSecond,
        p50Ms: folded.p50Ms,
        p99Ms: folded.p99Ms,
        plan: await target.plans.planOf(item.path, target.token).catch((e) => `(${e.message})`),
      };
      options.log?.(
        `  ${measured.route} ${measured.filter}: ${measured.status}, ${measured.rows} rows, ` +
          `p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms` +
          (options.rounds > 1 ? ` (median of ${options.rounds})` : ""),
      );
      results[i]!.push(measured);
    }
  }
  return results;
}
