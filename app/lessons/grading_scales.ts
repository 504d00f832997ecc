/**
 * Use cases of grading scales: nested levels, and exactly one default scale (the first
 * scale becomes it; making another the default unsets the previous). Changes of the
 * default are serialized by an advisory lock; a partial unique index backs the rule.
 */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  clearDefaultScale,
  deleteGradingScale,
  deleteLevels,
  findDefaultScaleId,
  findGradingScale,
  findScaleRow,
  insertGradingScale,
  insertLevels,
  listLevelRows,
  lockDefaultScale,
  promoteOldestScale,
  updateGradingScale,
  updateLevel,
} from "./lessons_repo.ts";
import type { GradingScale, LevelInput } from "./lesson_schemas.ts";

function levelValues(level: LevelInput, index: number) {
  return {
    label: level.label,
    numericScore: level.numericScore ?? null,
    color: level.color ?? null,
    sortOrder: level.sortOrder ?? index,
  };
}

/** Replaces a scale's levels; a level whose value is kept keeps its id (and its grades). */
async function replaceLevels(deps: AppDeps, trx: Db, scaleId: string, levels: LevelInput[]) {
  const existing = new Map((await listLevelRows(trx, scaleId)).map((row) => [row.value, row]));
  const inserts = [];
  for (const [index, level] of levels.entries()) {
    const current = existing.get(level.value);
    if (current) {
      await updateLevel(trx, current.id, levelValues(level, index));
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
  await deleteLevels(trx, [...existing.values()].map((row) => row.id));
  await insertLevels(trx, inserts);
}

export async function createGradingScale(
  deps: AppDeps,
  input: { name: string; description?: string | null; isDefault?: boolean; levels: LevelInput[] },
): Promise<GradingScale> {
  return await withTransaction(deps.db, async (trx) => {
    await lockDefaultScale(trx);
    const now = deps.clock.now();
    const hasDefault = (await findDefaultScaleId(trx)) !== undefined;
    const isDefault = input.isDefault === true || !hasDefault;
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
    const row = await findScaleRow(trx, id, true);
    if (!row) throw new NotFoundError(`Grading scale "${id}" does not exist`);
    const now = deps.clock.now();
    if (input.isDefault === false && row.is_default) {
      throw new ConflictError(
        "default_required",
        "One scale must stay the default: make another scale the default instead",
      );
    }
    if (input.isDefault === true && !row.is_default) await clearDefaultScale(trx, now);
    await updateGradingScale(trx, id, {
      name: input.name,
      description: input.description,
      isDefault: input.isDefault,
    }, now);
    if (input.levels) await replaceLevels(deps, trx, id, input.levels);
    return (await findGradingScale(trx, id))!;
  });
}

export async function removeGradingScale(deps: AppDeps, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await lockDefaultScale(trx);
    const row = await findScaleRow(trx, id, true);
    if (!row) throw new NotFoundError(`Grading scale "${id}" does not exist`);
    await deleteGradingScale(trx, id);
    if (row.is_default) await promoteOldestScale(trx, deps.clock.now());
  });
}

export async function requireGradingScale(db: Db, id: string): Promise<GradingScale> {
  const scale = await findGradingScale(db, id);
  if (!scale) throw new NotFoundError(`Grading scale "${id}" does not exist`);
  return scale;
}
