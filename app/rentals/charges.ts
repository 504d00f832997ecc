/**
 * Rental charges (API §13): one per active rental and billing period, generated up to a date
 * by `POST /rentals/charges/generate` and `ops rentals bill` (cron). Generation walks the
 * active rentals in id order, a chunk at a time, each chunk in its own transaction: the
 * latest period billed per rental (one grouped query), the missing periods computed in
 * `domain/rentals/periods.ts`, then one multi-row insert that skips periods billed
 * meanwhile (ON CONFLICT DO NOTHING), so reruns and concurrent runs never duplicate.
 */
import { addDays } from "../../domain/calendar.ts";
import { ValidationError } from "../../domain/errors.ts";
import { periodIndexOf, periodsThrough } from "../../domain/rentals/periods.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { storeToday } from "../platform/store.ts";
import {
  findBillingState,
  insertCharges,
  listChargesOfRental,
  type NewCharge,
} from "./charges_repo.ts";
import type { ChargeJson, GenerateChargesResult } from "./rental_schemas.ts";
import { countActiveRentals, listActiveRentalsAfter } from "./rentals_repo.ts";
import { requireRental } from "./rentals.ts";

/** Rentals per chunk (and transaction) of charge generation. */
const CHUNK_RENTALS = 500;
/** Charges per insert statement. */
const INSERT_ROWS = 1000;
/** How far ahead of today charges may be generated. */
export const MAX_BILLING_DAYS_AHEAD = 366;

export async function listRentalCharges(deps: AppDeps, rentalId: string): Promise<ChargeJson[]> {
  await requireRental(deps.db, rentalId);
  // numeric(12,2) columns come back as two-decimal text already.
  return await listChargesOfRental(deps.db, rentalId);
}

export interface GenerateOptions {
  through?: string;
  /** Called once with the number of active rentals, then after each chunk with those done. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Creates every charge due up to `through` (default store-local today; at most
 * {@link MAX_BILLING_DAYS_AHEAD} days ahead, else 400). `skipped` counts the periods up to
 * `through` that had their charge already.
 */
export async function generateCharges(
  deps: AppDeps,
  actor: Actor,
  options: GenerateOptions = {},
): Promise<GenerateChargesResult> {
  const today = await storeToday(deps);
  const through = options.through ?? today;
  if (through > addDays(today, MAX_BILLING_DAYS_AHEAD)) {
    throw new ValidationError([{
      path: "through",
      message: `Must be at most ${MAX_BILLING_DAYS_AHEAD} days after today (${today})`,
    }]);
  }
  let created = 0;
  let skipped = 0;
  let rentals = 0;
  let after: string | null = null;
  const total = await countActiveRentals(deps.db);
  options.onProgress?.(0, total);
  for (;;) {
    const chunk = await withTransaction(deps.db, async (trx) => {
      const active = await listActiveRentalsAfter(trx, after, CHUNK_RENTALS);
      if (active.length === 0) return undefined;
      const state = await findBillingState(trx, active.map((r) => r.id), through);
      const charges: NewCharge[] = [];
      let alreadyBilled = 0;
      for (const rental of active) {
        const billed = state.get(rental.id);
        alreadyBilled += billed?.billedThrough ?? 0;
        const from = billed
          ? periodIndexOf(rental.startDate, rental.billingInterval, billed.lastPeriodStart) + 1
          : 0;
        for (
          const period of periodsThrough(rental.startDate, rental.billingInterval, through, from)
        ) {
          charges.push({
            id: deps.ids.uuid(),
            rentalId: rental.id,
            periodStart: period.periodStart,
            periodEnd: period.periodEnd,
            dueDate: period.dueDate,
            amount: rental.rate,
          });
        }
      }
      let inserted = 0;
      const now = deps.clock.now();
      for (let i = 0; i < charges.length; i += INSERT_ROWS) {
        inserted += await insertCharges(trx, charges.slice(i, i + INSERT_ROWS), now);
      }
      return {
        last: active[active.length - 1]!.id,
        looked: active.length,
        inserted,
        // A period another run billed meanwhile was skipped by the insert.
        skipped: alreadyBilled + charges.length - inserted,
      };
    });
    if (!chunk) break;
    after = chunk.last;
    rentals += chunk.looked;
    created += chunk.inserted;
    skipped += chunk.skipped;
    options.onProgress?.(rentals, Math.max(total, rentals));
  }
  if (created > 0) {
    await withTransaction(deps.db, (trx) =>
      audit(deps, trx, actor, {
        action: "rental.charges_generated",
        entityType: "rental_charge",
        entityId: null,
        details: { through, created, skipped, rentals },
      }));
  }
  return { created, skipped, rentals, through };
}
