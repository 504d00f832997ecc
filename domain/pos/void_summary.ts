/**
 * The voids section of the drawer and daily reports (API §8): how many transactions were voided
 * and their amount, in all and by the cashier who voided them. A void's amount is its
 * transaction's total as a positive magnitude, like every one-way figure of the reports.
 *
 * `byCashier` holds one row per cashier, ordered by name (then id); voids whose cashier is not
 * known (a user removed since) come last, in one row with `cashier` null.
 *
 * Which session a void belongs to (`sessionOfVoid`): a completed transaction voided afterwards
 * (money back out of the drawer) belongs to the session it was completed in; a pending one
 * voided before anyone paid belongs to the session of its register that was open when it was
 * voided. A pending transaction without a register, or voided while its register had no open
 * session, belongs to no session: it counts in no drawer or daily report.
 */
import type { Cents } from "../money.ts";

/** A record named for people: its id, and its name when the report was built. */
export interface NamedRef {
  id: string;
  name: string;
}

/** One voided transaction, as the reports count it. */
export interface ReportVoid {
  transactionId: string;
  /** Its total; the magnitude counts. */
  totalCents: Cents;
  /** Who voided it. */
  voidedBy: NamedRef | null;
}

export interface VoidsByCashier {
  cashier: NamedRef | null;
  count: number;
  amount: Cents;
}

export interface VoidsSummary {
  count: number;
  amount: Cents;
  byCashier: VoidsByCashier[];
}

function compareCashiers(a: VoidsByCashier, b: VoidsByCashier): number {
  if (a.cashier === null || b.cashier === null) {
    return (a.cashier === null ? 1 : 0) - (b.cashier === null ? 1 : 0);
  }
  const byName = a.cashier.name.localeCompare(b.cashier.name, "en");
  if (byName !== 0) return byName;
  return a.cashier.id < b.cashier.id ? -1 : a.cashier.id > b.cashier.id ? 1 : 0;
}

function summarize(rows: Iterable<VoidsByCashier>): VoidsSummary {
  const byCashier = new Map<string | null, VoidsByCashier>();
  for (const row of rows) {
    const key = row.cashier?.id ?? null;
    const merged = byCashier.get(key) ?? { cashier: row.cashier, count: 0, amount: 0 };
    merged.count += row.count;
    merged.amount += row.amount;
    byCashier.set(key, merged);
  }
  const list = [...byCashier.values()].sort(compareCashiers);
  return {
    count: list.reduce((n, r) => n + r.count, 0),
    amount: list.reduce((sum, r) => sum + r.amount, 0),
    byCashier: list,
  };
}

/** The voids section of one drawer session's report. */
export function summarizeVoids(voids: readonly ReportVoid[]): VoidsSummary {
  return summarize(voids.map((v) => ({
    cashier: v.voidedBy,
    count: 1,
    amount: Math.abs(v.totalCents),
  })));
}

/** The voids sections of several reports as one (the daily rollup): rows merged by cashier. */
export function mergeVoids(sections: readonly VoidsSummary[]): VoidsSummary {
  return summarize(sections.flatMap((s) => s.byCashier));
}

/** Where a voided transaction was rung up and when it was voided. */
export interface VoidPlacement {
  /** Set once it was completed (into this session). */
  drawerSessionId: string | null;
  registerId: string | null;
  voidedAt: Date | null;
}

/** A drawer session's register and the span it was open (`closedAt` null: open now). */
export interface SessionSpan {
  id: string;
  registerId: string;
  openedAt: Date;
  closedAt: Date | null;
}

/** The id of the session among `sessions` the void belongs to (see the top), if any. */
export function sessionOfVoid(
  placement: VoidPlacement,
  sessions: readonly SessionSpan[],
): string | undefined {
  if (placement.drawerSessionId !== null) {
    return sessions.find((s) => s.id === placement.drawerSessionId)?.id;
  }
  if (placement.voidedAt === null) return undefined;
  const at = placement.voidedAt.getTime();
  return sessions.find((s) =>
    s.registerId === placement.registerId && s.openedAt.getTime() <= at &&
    (s.closedAt === null || at < s.closedAt.getTime())
  )?.id;
}
