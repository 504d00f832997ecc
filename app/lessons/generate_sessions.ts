/**
 * Generating lesson sessions for a window: the pure plan from `domain/`, then idempotent
 * batched inserts (unique per enrollment and date, `ON CONFLICT DO NOTHING`). Runs are
 * serialized by a transaction-scoped advisory lock, so concurrent runs all succeed and the
 * later ones find the sessions existing.
 */
import { InvalidReferenceError } from "../../domain/errors.ts";
import { generationWindow } from "../../domain/lessons/generation_window.ts";
import { planSessions } from "../../domain/lessons/session_generation.ts";
import type { AppDeps } from "../deps.ts";
import { withTransaction } from "../db/transaction.ts";
import { currentConfig } from "../platform/runtime_config.ts";
import { listBlockedDatesBetween } from "./blocked_dates_repo.ts";
import { listEnrollmentsForGeneration } from "./enrollments_repo.ts";
import type { GenerateSessionsResult } from "./lesson_schemas.ts";
import { insertPlannedSessions, lockSessionGeneration } from "./sessions_repo.ts";
import { findSlotCore, listSlotsForGeneration } from "./slots_repo.ts";
import { listClosuresBetween } from "./store_closures_repo.ts";
import { storeToday } from "../platform/store.ts";

const INSERT_CHUNK_SIZE = 1000;

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
async function resolveWindow(
  deps: AppDeps,
  input: GenerateInput,
): Promise<{ from: string; to: string }> {
  if (input.from !== undefined && input.to !== undefined) return generationWindow(input);
  const { lessonSessionWindowDays } = await currentConfig(deps);
  return generationWindow(input, {
    today: await storeToday(deps),
    windowDays: lessonSessionWindowDays,
  });
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
