/**
 * Use cases of locations (API §4): create, update and delete, each audited
 * (`location.created`, `location.updated`, `location.deleted`), and the one get-or-404.
 * A location still referenced (registers, drawers, sales) cannot be deleted: 409 `in_use`.
 */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { AddressJson } from "../db/column_types.ts";
import type { Db } from "../db/database.ts";
import { isForeignKeyViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import {
  deleteLocationRow,
  findLocation,
  insertLocation,
  type LocationChanges,
  type LocationRecord,
  updateLocationRow,
} from "./locations_repo.ts";

type Deps = Pick<AppDeps, "db" | "clock" | "ids">;

function locationNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Location "${id}" does not exist`);
}

/** The location, or 404 `not_found`: the one get-or-404 of locations. */
export async function requireLocation(db: Db, id: string): Promise<LocationRecord> {
  const location = await findLocation(db, id);
  if (!location) throw locationNotFound(id);
  return location;
}

/** `POST /locations`: active unless `isActive: false`. */
export async function createLocation(
  deps: Deps,
  actor: Actor,
  input: {
    name: string;
    address?: AddressJson | null;
    phone?: string | null;
    isActive?: boolean;
  },
): Promise<LocationRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const location = await insertLocation(trx, {
      id: deps.ids.uuid(),
      name: input.name,
      address: input.address ?? null,
      phone: input.phone ?? null,
      isActive: input.isActive ?? true,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "location.created",
      entityType: "location",
      entityId: location.id,
      details: { name: location.name, isActive: location.isActive },
    });
    return location;
  });
}

/** `PATCH /locations/:id`: the given fields change (`isActive: false` deactivates). */
export async function updateLocation(
  deps: Deps,
  actor: Actor,
  id: string,
  changes: LocationChanges,
): Promise<LocationRecord> {
  return await withTransaction(deps.db, async (trx) => {
    const location = await updateLocationRow(trx, id, changes, deps.clock.now());
    if (!location) throw locationNotFound(id);
    await audit(deps, trx, actor, {
      action: "location.updated",
      entityType: "location",
      entityId: id,
      details: {
        fields: Object.keys(changes).filter((k) =>
          changes[k as keyof LocationChanges] !== undefined
        ),
      },
    });
    return location;
  });
}

/** `DELETE /locations/:id`: only a location nothing refers to any more (else 409 `in_use`). */
export async function deleteLocation(deps: Deps, actor: Actor, id: string): Promise<void> {
  try {
    await withTransaction(deps.db, async (trx) => {
      const location = await findLocation(trx, id);
      if (!location || !(await deleteLocationRow(trx, id))) throw locationNotFound(id);
      await audit(deps, trx, actor, {
        action: "location.deleted",
        entityType: "location",
        entityId: id,
        details: { name: location.name },
      });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError("in_use", `Location "${id}" is still in use; deactivate it instead`);
    }
    throw error;
  }
}
