/**
 * SQL of drawer sessions (one open session per register: the partial unique index
 * `drawer_sessions_one_open_per_register`).
 *
 * Locks: a drawer session row is locked in two strengths on purpose, a reader/writer pair.
 * Whatever records into an open session (a sale's completion, a refund, a cash adjustment, a
 * void's check) holds it FOR SHARE, so such requests never wait for each other; closing it
 * holds it FOR UPDATE, so a close waits until they commit and they wait for the close (then
 * see it closed). See {@link lockDrawerSession} and {@link lockOpenSessions}.
 */
import { type Selectable, sql, type Transaction } from "kysely";
import { isAnyOf } from "../db/any_of.ts";
import { selectUserName } from "../auth/users_repo.ts";
import type { NamedRef } from "../../domain/pos/void_summary.ts";
import type { Database, Db } from "../db/database.ts";
import { jsonb } from "../db/jsonb.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, isoStringOrNull } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { DrawerSessionTable } from "./pos_tables.ts";

export interface DrawerSessionRecord {
  id: string;
  registerId: string;
  locationId: string;
  status: "open" | "closed";
  openingBalance: string;
  closingBalance: string | null;
  expectedBalance: string | null;
  overShort: string | null;
  notes: string | null;
  openedBy: string | null;
  closedBy: string | null;
  openedAt: string;
  closedAt: string | null;
  zReport: Record<string, unknown> | null;
}

type SessionRow = Selectable<DrawerSessionTable>;

/** The record of a `drawer_sessions` row (also as read back from JSON, with text times). */
export function toDrawerSession(row: SessionRow): DrawerSessionRecord {
  let report = row.z_report as unknown;
  if (typeof report === "string") report = JSON.parse(report);
  return {
    id: row.id,
    registerId: row.register_id,
    locationId: row.location_id,
    status: row.status,
    openingBalance: row.opening_balance,
    closingBalance: row.closing_balance,
    expectedBalance: row.expected_balance,
    overShort: row.over_short,
    notes: row.notes,
    openedBy: row.opened_by,
    closedBy: row.closed_by,
    openedAt: isoString(row.opened_at),
    closedAt: isoStringOrNull(row.closed_at),
    zReport: (report as Record<string, unknown> | null) ?? null,
  };
}

export async function insertDrawerSession(
  db: Db,
  values: {
    id: string;
    registerId: string;
    locationId: string;
    openingBalance: string;
    openedBy: string;
    now: Date;
  },
): Promise<DrawerSessionRecord> {
  const row = await db.insertInto("drawer_sessions").values({
    id: values.id,
    register_id: values.registerId,
    location_id: values.locationId,
    status: "open",
    opening_balance: values.openingBalance,
    opened_by: values.openedBy,
    opened_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toDrawerSession(row);
}

export async function findDrawerSession(
  db: Db,
  id: string,
): Promise<DrawerSessionRecord | undefined> {
  const row = await db.selectFrom("drawer_sessions").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toDrawerSession(row);
}

/**
 * The session, locked until the caller commits: `"share"` to record into it (a sale, refund,
 * adjustment or void; such requests do not wait for each other), `"update"` to close it (waits
 * for them, and they for it).
 */
export async function lockDrawerSession(
  trx: Transaction<Database>,
  id: string,
  strength: "share" | "update",
): Promise<DrawerSessionRecord | undefined> {
  const query = trx.selectFrom("drawer_sessions").selectAll().where("id", "=", id);
  const row = await (strength === "update" ? query.forUpdate() : query.forShare())
    .executeTakeFirst();
  return row && toDrawerSession(row);
}

function openSessionsQuery(db: Db, where: { locationId?: string; registerId?: string }) {
  let query = db.selectFrom("drawer_sessions").selectAll().where("status", "=", "open");
  if (where.locationId) query = query.where("location_id", "=", where.locationId);
  if (where.registerId) query = query.where("register_id", "=", where.registerId);
  return query.orderBy("opened_at").orderBy("id");
}

/** The open sessions at a location or of a register, oldest first. */
export async function findOpenSessions(
  db: Db,
  where: { locationId?: string; registerId?: string },
): Promise<DrawerSessionRecord[]> {
  return (await openSessionsQuery(db, where).execute()).map(toDrawerSession);
}

/**
 * {@link findOpenSessions}, locked FOR SHARE (to record into one of them): a concurrent close
 * (FOR UPDATE) waits until the caller commits, and a session closed in the meantime is
 * re-checked and left out.
 */
export async function lockOpenSessions(
  trx: Transaction<Database>,
  where: { locationId?: string; registerId?: string },
): Promise<DrawerSessionRecord[]> {
  return (await openSessionsQuery(trx, where).forShare().execute()).map(toDrawerSession);
}

export interface DrawerFilters {
  registerId?: string;
  locationId?: string;
  status?: "open" | "closed";
  fromAt?: Date;
  toAt?: Date;
}

export function listDrawerSessions(db: Db, params: ListParams & DrawerFilters) {
  let query = db.selectFrom("drawer_sessions").select([
    "id",
    "register_id",
    "location_id",
    "status",
    "opening_balance",
    "closing_balance",
    "expected_balance",
    "over_short",
    "notes",
    "opened_by",
    "closed_by",
    "opened_at",
    "closed_at",
    sql<null>`NULL::jsonb`.as("z_report"),
  ]);
  if (params.registerId) query = query.where("register_id", "=", params.registerId);
  if (params.locationId) query = query.where("location_id", "=", params.locationId);
  if (params.status) query = query.where("status", "=", params.status);
  if (params.fromAt) query = query.where("opened_at", ">=", params.fromAt);
  if (params.toAt) query = query.where("opened_at", "<", params.toAt);
  if (params.q) {
    const q = params.q;
    query = query.where((eb) =>
      eb.or([
        isAnyOf(
          "register_id",
          eb.selectFrom("registers").select("id").where(containsText("name", q)),
        ),
        containsText("notes", q),
      ])
    );
  }
  return paginate(query, params, {
    // Named with their table, so a search reads its matches once (both indexes, then sorted)
    // instead of walking every session along `opened_at` when few or none match.
    sortColumns: {
      openedAt: "drawer_sessions.opened_at",
      closedAt: "drawer_sessions.closed_at",
      createdAt: "drawer_sessions.opened_at",
    },
    nullableSorts: ["closedAt"],
    tieBreaker: "drawer_sessions.id",
    map: (row) => {
      const { zReport: _, ...rest } = toDrawerSession(row as SessionRow);
      return rest;
    },
  });
}

export async function closeDrawerSessionRow(
  db: Db,
  id: string,
  values: {
    closingBalance: string;
    expectedBalance: string;
    overShort: string;
    notes: string | null;
    closedBy: string;
    report: unknown;
    now: Date;
  },
): Promise<DrawerSessionRecord> {
  const row = await db.updateTable("drawer_sessions").set({
    status: "closed",
    closing_balance: values.closingBalance,
    expected_balance: values.expectedBalance,
    over_short: values.overShort,
    notes: values.notes,
    closed_by: values.closedBy,
    closed_at: values.now,
    z_report: jsonb(values.report) as never,
  }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
  return toDrawerSession(row);
}

/** Sessions of a location that belong to a store-local day: closed in it, or still open. */
export async function findSessionsForDay(
  db: Db,
  locationId: string,
  range: { start: Date; end: Date },
  includeOpen: boolean,
): Promise<DrawerSessionRecord[]> {
  const rows = await db.selectFrom("drawer_sessions").selectAll()
    .where("location_id", "=", locationId)
    .where((eb) => {
      const closedInDay = eb.and([
        eb("status", "=", "closed"),
        eb("closed_at", ">=", range.start),
        eb("closed_at", "<", range.end),
      ]);
      return includeOpen ? eb.or([closedInDay, eb("status", "=", "open")]) : closedInDay;
    })
    .orderBy("opened_at").orderBy("id").execute();
  return rows.map(toDrawerSession);
}

/** What names a drawer session for people: its register and its cashier (who opened it). */
export interface SessionNames {
  register: NamedRef;
  cashier: NamedRef | null;
}

/** The names of the sessions `ids`, in one query whatever their number: session id → names. */
export async function findSessionNames(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, SessionNames>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("drawer_sessions as s")
    .innerJoin("registers as r", "r.id", "s.register_id")
    .leftJoin("users as u", "u.id", "s.opened_by")
    .select([
      "s.id",
      "r.id as register_id",
      "r.name as register_name",
      "u.id as cashier_id",
      selectUserName("u").as("cashier_name"),
    ])
    .where("s.id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, {
    register: { id: row.register_id, name: row.register_name },
    cashier: row.cashier_id === null ? null : { id: row.cashier_id, name: row.cashier_name ?? "" },
  }]));
}
