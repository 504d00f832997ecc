/** The core lookup of identity document types (`GET/POST /lookups/id-types`) and its seed. */
import { ConflictError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { systemClock, systemIds } from "../ids.ts";
import { deleteLookupRow } from "../lookups.ts";
import {
  deleteIdTypeRow,
  findIdType,
  type IdTypeRecord,
  insertIdType,
  listIdTypes,
} from "./id_types_repo.ts";

export const BUILT_IN_ID_TYPES: ReadonlyArray<{ value: string; label: string }> = [
  { value: "drivers_license", label: "Driver's license" },
  { value: "state_id", label: "State ID" },
  { value: "passport", label: "Passport" },
  { value: "student_id", label: "Student ID" },
  { value: "other", label: "Other" },
];

/**
 * Idempotent seed of the built-in id types. Seeds run before `AppDeps` exist, so the id and
 * time sources default to the ones `createDeps` defaults to.
 */
export async function seedIdTypes(
  db: Db,
  sources: Pick<AppDeps, "clock" | "ids"> = { clock: systemClock, ids: systemIds },
): Promise<void> {
  for (const type of BUILT_IN_ID_TYPES) {
    await insertIdType(db, {
      id: sources.ids.uuid(),
      value: type.value,
      label: type.label,
      isBuiltIn: true,
      now: sources.clock.now(),
    }, { ignoreExisting: true });
  }
}

export function getIdTypes(deps: AppDeps): Promise<IdTypeRecord[]> {
  return listIdTypes(deps.db);
}

export async function createIdType(
  deps: AppDeps,
  input: { value: string; label: string },
): Promise<IdTypeRecord> {
  const id = deps.ids.uuid();
  try {
    await insertIdType(deps.db, { id, ...input, isBuiltIn: false, now: deps.clock.now() });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError("duplicate", `The id type "${input.value}" already exists`);
    }
    throw error;
  }
  return { id, value: input.value, label: input.label, isBuiltIn: false };
}

/**
 * Built-ins → 409 built_in; a type used by any member identifier → 409 in_use (the
 * identifiers' foreign key refuses the delete; identifier writes key-share lock the type).
 */
export async function deleteIdType(deps: AppDeps, id: string): Promise<void> {
  await deleteLookupRow(deps.db, {
    label: "id type",
    usedBy: "member identifiers",
    find: findIdType,
    remove: deleteIdTypeRow,
  }, id);
}
