/** Use cases of registers (API §8): CRUD; a register with drawer history cannot be deleted. */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../db/db_errors.ts";
import type { Db } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import {
  deleteRegisterRow,
  findRegister,
  insertRegister,
  type RegisterRecord,
  updateRegister,
} from "./registers_repo.ts";

async function assertLocation(db: Db, locationId: string): Promise<void> {
  if (!(await findLocation(db, locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${locationId}" does not exist`);
  }
}

function duplicate(name: string): ConflictError {
  return new ConflictError("duplicate", `A register named "${name}" exists at this location`);
}

function registerNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Register "${id}" does not exist`);
}

/** The register, or 404. */
export async function requireRegister(db: Db, id: string): Promise<RegisterRecord> {
  const register = await findRegister(db, id);
  if (!register) throw registerNotFound(id);
  return register;
}

export async function createRegister(
  deps: AppDeps,
  input: { name: string; locationId: string; isActive?: boolean },
): Promise<RegisterRecord> {
  await assertLocation(deps.db, input.locationId);
  try {
    return await insertRegister(deps.db, {
      id: deps.ids.uuid(),
      name: input.name,
      locationId: input.locationId,
      isActive: input.isActive ?? true,
      now: deps.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.name);
    if (isForeignKeyViolation(error)) {
      throw new InvalidReferenceError(
        "locationId",
        `Location "${input.locationId}" does not exist`,
      );
    }
    throw error;
  }
}

export async function changeRegister(
  deps: AppDeps,
  id: string,
  input: { name?: string; locationId?: string; isActive?: boolean },
): Promise<RegisterRecord> {
  await requireRegister(deps.db, id);
  if (input.locationId) await assertLocation(deps.db, input.locationId);
  try {
    const updated = await updateRegister(deps.db, id, input, deps.clock.now());
    if (!updated) throw registerNotFound(id);
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.name ?? "");
    throw error;
  }
}

/** Deletes a register without drawer history; one with history → 409 in_use. */
export async function removeRegister(deps: AppDeps, id: string): Promise<void> {
  let deleted: boolean;
  try {
    deleted = await deleteRegisterRow(deps.db, id);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError(
        "in_use",
        `Register "${id}" has drawer sessions or transactions; deactivate it instead`,
      );
    }
    throw error;
  }
  if (!deleted) throw registerNotFound(id);
}
