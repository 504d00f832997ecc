/**
 * Use cases of grading scales: nested levels, and exactly one default scale (the rule in
 * domain/lessons/grading_scale_default.ts). Changes of the default are serialized by an
 * advisory lock; a partial unique index backs the rule.
 */
import { NotFoundError } from "../../domain/errors.ts";
import {
  assertKeepsDefault,
  isDefaultOnCreate,
} from "../../domain/lessons/grading_scale_default.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  clearDefaultScale,
  deleteGradingScale,
  deleteLevels,
  findGradingScale,
  hasDefaultScale,
  insertGradingScale,
  insertLevels,
  type LevelValues,
  listLevelIds,
  lockDefaultScale,
  lockGradingScale,
  promoteOldestScale,
  updateGradingScale,
  updateLevel,
} from "./grading_scales_repo.ts";
import type { GradingScale, LevelInput } from "./lesson_schemas.ts";

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Grading scale "${id}" does not exist`);
}

export async function requireGradingScale(db: Db, id: string): Promise<GradingScale> {
  const scale = await findGradingScale(db, id);
  if (!scale) throw notFound(id);
  return scale;
}

function levelValues(level: LevelInput, index: number): LevelValues {
  return {
    label: level.label,
    numericScore: level.numericScore ?? null,
    color: level.color ?? null,
    sortOrder: level.sortOrder ?? index,
  };
}

/** Replaces a scale's levels; a level whose value is kept keeps its id (and its grades). */
async function replaceLevels(deps: AppDeps, trx: Db, scaleId: string, levels: LevelInput[]) {
  const existing = new Map((await listLevelIds(trx, scaleId)).map((row) => [row.value, row.id]));
  const inserts = [];
  for (const [index, level] of levels.entries()) {
    const currentId = existing.get(level.value);
    if (currentId) {
      await updateLevel(trx, currentId, levelValues(level, index));
      existing.delete(level.value);
    } else {
      inserts.push({
        id: deps.ids.uuid(),
        scaleId,
        value: level.value,
        ...levelValues(level, index),
      });
    }
  }
  await deleteLevels(trx, [...existing.values()]);
  await insertLevels(trx, inserts);
}

export async function createGradingScale(
  deps: AppDeps,
  input: { name: string; description?: string | null; isDefault?: boolean; levels: LevelInput[] },
): Promise<GradingScale> {
  return await withTransaction(deps.db, async (trx) => {
    await lockDefaultScale(trx);
    const now = deps.clock.now();
    const hasDefault = await hasDefaultScale(trx);
    const isDefault = isDefaultOnCreate(input.isDefault, hasDefault);
    if (isDefault && hasDefault) await clearDefaultScale(trx, now);
    const id = deps.ids.uuid();
    await insertGradingScale(trx, {
      id,
      name: input.name,
      description: input.description ?? null,
      isDefault,
      now,
    });
    await insertLevels(
      trx,
      input.levels.map((level, index) => ({
        id: deps.ids.uuid(),
        scaleId: id,
        value: level.value,
        ...levelValues(level, index),
      })),
    );
    return (await findGradingScale(trx, id))!;
  });
}

export async function changeGradingScale(
  deps: AppDeps,
  id: string,
  input: { name?: string; description?: string | null; isDefault?: boolean; levels?: LevelInput[] },
): Promise<GradingScale> {
  return await withTransaction(deps.db, async (trx) => {
    await lockDefaultScale(trx);
    const scale = await lockGradingScale(trx, id);
    if (!scale) throw notFound(id);
    const now = deps.clock.now();
    assertKeepsDefault(input.isDefault, scale.isDefault);
    if (input.isDefault === true && !scale.isDefault) await clearDefaultScale(trx, now);
    await updateGradingScale(trx, id, {
      name: input.name,
      description: input.description,
      isDefault: input.isDefault,
    }, now);
    if (input.levels) await replaceLevels(deps, trx, id, input.levels);
    return (await findGradingScale(trx, id))!;
  });
}

/** Deleting the default makes the oldest remaining scale the default. */
export async function removeGradingScale(deps: AppDeps, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await lockDefaultScale(trx);
    const scale = await lockGradingScale(trx, id);
    if (!scale) throw notFound(id);
    await deleteGradingScale(trx, id);
    if (scale.isDefault) await promoteOldestScale(trx, deps.clock.now());
  });
}
