/**
 * Finding a location or a register by id or name for the point-of-sale commands (`ops report`,
 * `ops drawers`), on the database or through the server's API, and a register's latest drawer
 * session. A name matches case-insensitively and exactly; several matches are a usage error
 * that says how to narrow them down.
 */
import { findLocationIdsByIdOrName, listLocations } from "../../app/platform/locations_repo.ts";
import type { AppDeps } from "../../app/deps.ts";
import { drawerListQuery } from "../../app/pos/drawer_schemas.ts";
import { listDrawers } from "../../app/pos/drawers.ts";
import { findRegistersByIdOrName } from "../../app/pos/registers_repo.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { type ApiClient, ApiError } from "../_api.ts";
import { CliError, UsageError } from "../_errors.ts";
import { UUID } from "../_input.ts";

export interface Place {
  id: string;
  name?: string;
}

export function pickLocation(idOrName: string, matches: Place[]): Place {
  if (matches.length === 0) {
    throw new NotFoundError("not_found", `No location "${idOrName}" (give its id or its name)`);
  }
  if (matches.length > 1) {
    throw new UsageError(`Several locations are named "${idOrName}": give the id instead`);
  }
  return matches[0]!;
}

/** The location `idOrName` on the database. */
export async function locationDirect(deps: AppDeps, idOrName: string): Promise<Place> {
  const ids = await findLocationIdsByIdOrName(deps.db, idOrName);
  return pickLocation(idOrName, ids.map((id) => ({ id })));
}

/** The location named `idOrName` through the API (names need settings.view: else give the id). */
export async function locationVia(api: ApiClient, idOrName: string): Promise<Place> {
  if (UUID.test(idOrName)) {
    const found = await api.request<{ name: string }>("GET", `/locations/${idOrName}`)
      .catch(() => undefined);
    return { id: idOrName, name: found?.name };
  }
  const page = await api.request<{ data: Array<{ id: string; name: string }> }>(
    "GET",
    "/locations",
    { query: { q: idOrName, limit: 100 } },
  ).catch((error) => settingsViewNeeded(error, "Finding a location by name"));
  const wanted = idOrName.toLowerCase();
  return pickLocation(idOrName, page.data.filter((l) => l.name.toLowerCase() === wanted));
}

type LocationPage = {
  data: Array<{ id: string; name: string }>;
  pagination: { total: number };
};

/** The shop's only active location, for `--location` left out; else a usage error. */
function onlyLocation(page: LocationPage): Place {
  if (page.pagination.total === 1) return page.data[0]!;
  if (page.pagination.total === 0) {
    throw new CliError("The shop has no active location yet: set one up with `ops setup`");
  }
  const names = page.data.map((l) => `"${l.name}"`).join(", ");
  throw new UsageError(
    `The shop has ${page.pagination.total} active locations (${names}${
      page.pagination.total > page.data.length ? ", …" : ""
    }): name one with --location`,
  );
}

const ACTIVE_LOCATIONS = {
  page: 1,
  limit: 5,
  q: undefined,
  sort: "name",
  order: "asc",
  isActive: true,
} as const;

/** A 403 on the locations list: the login may still read the report of a location's id. */
function settingsViewNeeded(error: unknown, finding: string): never {
  if (error instanceof ApiError && error.status === 403) {
    throw new CliError(
      `${finding} needs the settings.view permission: give the location's id instead ` +
        `(--location UUID; ${error.message})`,
    );
  }
  throw error;
}

/** The location `idOrName` on the database; left out, the shop's one active location. */
export async function locationOrOnlyDirect(
  deps: AppDeps,
  idOrName: string | undefined,
): Promise<Place> {
  if (idOrName !== undefined) return await locationDirect(deps, idOrName);
  return onlyLocation(await listLocations(deps.db, ACTIVE_LOCATIONS));
}

/** The location `idOrName` through the API; left out, the shop's one active location. */
export async function locationOrOnlyVia(
  api: ApiClient,
  idOrName: string | undefined,
): Promise<Place> {
  if (idOrName !== undefined) return await locationVia(api, idOrName);
  return onlyLocation(
    await api.request<LocationPage>("GET", "/locations", {
      query: { isActive: "true", limit: 5 },
    }).catch((error) => settingsViewNeeded(error, "Finding the shop's location")),
  );
}

export interface RegisterRef {
  id: string;
  name: string;
  locationId: string;
}

function pickRegister(idOrName: string, matches: readonly RegisterRef[]): RegisterRef {
  if (matches.length === 0) {
    throw new NotFoundError("not_found", `No register "${idOrName}" (give its id or its name)`);
  }
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} registers are named "${idOrName}" (at several locations): add ` +
        "--location, or give the register's id",
    );
  }
  return matches[0]!;
}

/** The register `idOrName` (at `location`, an id or name, when given) on the database. */
export async function registerDirect(
  deps: AppDeps,
  idOrName: string,
  location?: string,
): Promise<RegisterRef> {
  const locationId = location ? (await locationDirect(deps, location)).id : undefined;
  return pickRegister(idOrName, await findRegistersByIdOrName(deps.db, idOrName, locationId));
}

/** The register `idOrName` (at `location` when given) through the API (pos.view). */
export async function registerVia(
  api: ApiClient,
  idOrName: string,
  location?: string,
): Promise<RegisterRef> {
  const locationId = location ? (await locationVia(api, location)).id : undefined;
  if (UUID.test(idOrName)) {
    const found = await api.request<RegisterRef>("GET", `/registers/${idOrName}`)
      .catch((error) => {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      });
    if (found && (!locationId || found.locationId === locationId)) return found;
  }
  const page = await api.request<{ data: RegisterRef[] }>("GET", "/registers", {
    query: { q: idOrName, limit: 100, ...(locationId ? { locationId } : {}) },
  });
  const wanted = idOrName.toLowerCase();
  return pickRegister(idOrName, page.data.filter((r) => r.name.toLowerCase() === wanted));
}

function noSession(register: RegisterRef): NotFoundError {
  return new NotFoundError("not_found", `Register "${register.name}" has no drawer session yet`);
}

/** The id of the register's latest drawer session (the last opened) on the database. */
export async function latestSessionDirect(deps: AppDeps, register: RegisterRef): Promise<string> {
  const page = await listDrawers(deps, {
    ...drawerListQuery.parse({}),
    registerId: register.id,
    limit: 1,
  });
  const session = page.data[0];
  if (!session) throw noSession(register);
  return session.id;
}

/** The id of the register's latest drawer session through the API. */
export async function latestSessionVia(api: ApiClient, register: RegisterRef): Promise<string> {
  const page = await api.request<{ data: Array<{ id: string }> }>("GET", "/drawers", {
    query: { registerId: register.id, limit: 1, sort: "openedAt", order: "desc" },
  });
  const session = page.data[0];
  if (!session) throw noSession(register);
  return session.id;
}
