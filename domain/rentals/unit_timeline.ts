/**
 * A unit's life story (API §13 "Unit life story"): the events of every source merged into one
 * timeline, oldest first. Unit history rows (creation and each change of status or condition)
 * become `received`, `status_changed` and `condition_changed` (with from/to); POS lines become
 * `sold` and `refunded`; rentals `rented`, `returned` (also a cancelled rental, with
 * `cancelled: true`) and `bought_out`; repair tickets carrying the serial number
 * `repair_opened` and `repair_closed` (picked_up, delivered or cancelled).
 */

export type TimelineKind =
  | "received"
  | "status_changed"
  | "condition_changed"
  | "sold"
  | "refunded"
  | "rented"
  | "returned"
  | "repair_opened"
  | "repair_closed"
  | "bought_out";

export interface TimelineRefs {
  transactionId?: string;
  rentalId?: string;
  repairTicketId?: string;
  accountId?: string;
}

export interface TimelineEvent {
  at: string;
  kind: TimelineKind;
  actorId: string | null;
  refs: TimelineRefs;
  details: Record<string, unknown>;
}

export interface UnitHistoryEntry {
  kind: "created" | "changed";
  status: string;
  condition: string;
  /** What made the change: unit (an edit), sale, void, refund, rental, return, cancel, buyout. */
  source: string;
  actorId: string | null;
  at: string;
}

export interface UnitSaleEntry {
  transactionId: string;
  type: "sale" | "refund";
  receiptNumber: string;
  accountId: string | null;
  actorId: string | null;
  at: string;
  amount: string;
}

export interface UnitRentalEntry {
  rentalId: string;
  rentalNumber: string;
  accountId: string;
  memberId: string | null;
  startDate: string;
  createdAt: string;
  createdBy: string | null;
  returnedAt: string | null;
  returnedBy: string | null;
  returnCondition: string | null;
  cancelledAt: string | null;
  cancelledBy: string | null;
  purchasedAt: string | null;
  purchaseTransactionId: string | null;
}

export interface UnitRepairEntry {
  ticketId: string;
  ticketNumber: string;
  accountId: string;
  createdAt: string;
  createdBy: string | null;
  closes: ReadonlyArray<{ toStatus: string; at: string; actorId: string | null }>;
}

export interface TimelineSources {
  history: readonly UnitHistoryEntry[];
  sales: readonly UnitSaleEntry[];
  rentals: readonly UnitRentalEntry[];
  repairs: readonly UnitRepairEntry[];
}

/** Creation and changes of status/condition, with what each changed from and to. */
function historyEvents(history: readonly UnitHistoryEntry[]): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  let previous: UnitHistoryEntry | undefined;
  for (const entry of history) {
    const base = { at: entry.at, actorId: entry.actorId, refs: {} };
    if (entry.kind === "created" || !previous) {
      events.push({
        ...base,
        kind: "received",
        details: { status: entry.status, condition: entry.condition, source: entry.source },
      });
    } else {
      if (entry.status !== previous.status) {
        events.push({
          ...base,
          kind: "status_changed",
          details: { from: previous.status, to: entry.status, source: entry.source },
        });
      }
      if (entry.condition !== previous.condition) {
        events.push({
          ...base,
          kind: "condition_changed",
          details: { from: previous.condition, to: entry.condition, source: entry.source },
        });
      }
    }
    previous = entry;
  }
  return events;
}

function saleEvents(sales: readonly UnitSaleEntry[]): TimelineEvent[] {
  return sales.map((s) => ({
    at: s.at,
    kind: s.type === "sale" ? "sold" : "refunded",
    actorId: s.actorId,
    refs: { transactionId: s.transactionId, ...(s.accountId ? { accountId: s.accountId } : {}) },
    details: { receiptNumber: s.receiptNumber, amount: s.amount },
  }));
}

function rentalEvents(rentals: readonly UnitRentalEntry[]): TimelineEvent[] {
  return rentals.flatMap((r) => {
    const refs = { rentalId: r.rentalId, accountId: r.accountId };
    const details = { rentalNumber: r.rentalNumber, memberId: r.memberId };
    const events: TimelineEvent[] = [{
      at: r.createdAt,
      kind: "rented",
      actorId: r.createdBy,
      refs,
      details: { ...details, startDate: r.startDate },
    }];
    if (r.returnedAt) {
      events.push({
        at: r.returnedAt,
        kind: "returned",
        actorId: r.returnedBy,
        refs,
        details: { ...details, condition: r.returnCondition, cancelled: false },
      });
    }
    if (r.cancelledAt) {
      events.push({
        at: r.cancelledAt,
        kind: "returned",
        actorId: r.cancelledBy,
        refs,
        details: { ...details, condition: null, cancelled: true },
      });
    }
    if (r.purchasedAt) {
      events.push({
        at: r.purchasedAt,
        kind: "bought_out",
        actorId: null,
        refs: {
          ...refs,
          ...(r.purchaseTransactionId ? { transactionId: r.purchaseTransactionId } : {}),
        },
        details,
      });
    }
    return events;
  });
}

function repairEvents(repairs: readonly UnitRepairEntry[]): TimelineEvent[] {
  return repairs.flatMap((t) => {
    const refs = { repairTicketId: t.ticketId, accountId: t.accountId };
    return [
      {
        at: t.createdAt,
        kind: "repair_opened" as const,
        actorId: t.createdBy,
        refs,
        details: { ticketNumber: t.ticketNumber },
      },
      ...t.closes.map((c) => ({
        at: c.at,
        kind: "repair_closed" as const,
        actorId: c.actorId,
        refs,
        details: { ticketNumber: t.ticketNumber, status: c.toStatus },
      })),
    ];
  });
}

/** At one instant: the unit's creation first, then what happened, then the changes it made. */
function rank(kind: TimelineKind): number {
  if (kind === "received") return 0;
  return kind === "status_changed" || kind === "condition_changed" ? 2 : 1;
}

/**
 * Every event, oldest first; at one instant `received` first and status/condition changes
 * after the event that made them (a sale before the unit turning `sold`).
 */
export function unitTimeline(sources: TimelineSources): TimelineEvent[] {
  const events = [
    ...historyEvents(sources.history),
    ...saleEvents(sources.sales),
    ...rentalEvents(sources.rentals),
    ...repairEvents(sources.repairs),
  ];
  const at = (e: TimelineEvent) => Date.parse(e.at);
  return events.map((e, i) => ({ e, i }))
    .sort((a, b) => at(a.e) - at(b.e) || rank(a.e.kind) - rank(b.e.kind) || a.i - b.i)
    .map(({ e }) => e);
}
