/**
 * Generating lesson sessions for a window: the pure plan from `domain/`, then idempotent
 * batched inserts (unique per enrollment and date, `ON CONFLICT DO NOTHING`). Runs are
 * serialized by a transaction-scoped advisory lock, so concurrent runs all succeed and the
 * later ones find the sessions existing.
 */
import { InvalidReferenceError, ValidationError } from "../../domain/errors.ts";
import { addDays, daysBetween } from "../../domain/lessons/calendar.ts";
import { planSessions } from "../../domain/lessons/session_generation.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import { getRuntimeConfig } from "../platform/settings.ts";
import {
  findSlotCore,
  insertPlannedSessions,
  listBlockedDatesBetween,
  listClosuresBetween,
  listEnrollmentsForGeneration,
  listSlotsForGeneration,
  lockSessionGeneration,
} from "./lessons_repo.ts";
import type { GenerateSessionsResult } from "./lesson_schemas.ts";
import { storeToday } from "./lesson_types.ts";

export const MAX_WINDOW_DAYS = 366;
export const INSERT_CHUNK_SIZE = 1000;

export interface GenerateInput {
  from?: string;
  to?: string;
  slotId?: string;
}

export interface GenerateProgress {
  /** Would-be sessions handled so far and in total. */
  done: number;
  total: number;
}

/** The inclusive window: explicit dates, else today .. today + lessonSessionWindowDays. */
export async function resolveWindow(
  deps: AppDeps,
  input: GenerateInput,
): Promise<{ from: string; to: string }> {
  let from = input.from;
  let to = input.to;
  if (from === undefined || to === undefined) {
    const { lessonSessionWindowDays } = await getRuntimeConfig(deps.db);
    from ??= await storeToday(deps);
    to ??= addDays(from, lessonSessionWindowDays);
  }
  if (to < from) {
    throw new ValidationError([{ path: "to", message: "to must not be before from" }]);
  }
  if (daysBetween(from, to) > MAX_WINDOW_DAYS) {
    throw new ValidationError([{
      path: "to",
      message: `The window may span at most ${MAX_WINDOW_DAYS} days`,
    }]);
  }
  return { from, to };
}

export async function generateSessions(
  deps: AppDeps,
  input: GenerateInput = {},
  onProgress?: (progress: GenerateProgress) => void,
): Promise<GenerateSessionsResult & { from: string; to: string }> {
  const { from, to } = await resolveWindow(deps, input);
  if (input.slotId && !(await findSlotCore(deps.db, input.slotId))) {
    throw new InvalidReferenceError("slotId", `Schedule slot "${input.slotId}" does not exist`);
  }
  return await withTransaction(deps.db, async (trx) => {
    await lockSessionGeneration(trx);
    const [slots, enrollments, blockedDates, closures] = [
      await listSlotsForGeneration(trx, input.slotId),
      await listEnrollmentsForGeneration(trx, from, to, input.slotId),
      await listBlockedDatesBetween(trx, from, to),
      await listClosuresBetween(trx, from, to),
    ];
    const plan = planSessions({ slots, enrollments, blockedDates, closures, from, to });
    const total = plan.sessions.length;
    const now = deps.clock.now();
    let created = 0;
    onProgress?.({ done: 0, total });
    for (let i = 0; i < total; i += INSERT_CHUNK_SIZE) {
      const chunk = plan.sessions.slice(i, i + INSERT_CHUNK_SIZE);
      created += await insertPlannedSessions(trx, chunk, () => deps.ids.uuid(), now);
      onProgress?.({ done: Math.min(total, i + chunk.length), total });
    }
    return {
      from,
      to,
      created,
      skipped: {
        existing: total - created,
        blockedDates: plan.skipped.blockedDates,
        closures: plan.skipped.closures,
      },
    };
  });
}
