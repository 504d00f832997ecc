/**
 * Drawer sessions (API §8). One open session per register is enforced by the partial unique
 * index `drawer_sessions_one_open_per_register`. Closing locks the session FOR UPDATE, so it
 * waits for sales being completed against it (they hold it FOR SHARE) and freezes the Z
 * report on the row.
 */
import type { Transaction } from "kysely";
import {
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { pickOpenSession } from "../../domain/pos/drawer_choice.ts";
import { actingUserId, type Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Database, Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import type { ListParams } from "../schemas.ts";
import {
  closeDrawerSessionRow,
  type DrawerFilters,
  type DrawerSessionRecord,
  findDrawerSession,
  findOpenSessions,
  findSessionNames,
  insertDrawerSession,
  listDrawerSessions,
  lockDrawerSession,
  lockOpenSessions,
  type SessionNames,
} from "./drawer_sessions_repo.ts";
import { findRegister } from "./registers_repo.ts";
import { drawerReportToJson } from "./report_json.ts";
import { buildSessionReports, frozenZReport } from "./session_reports.ts";
import { timeRange } from "./time_range.ts";

/** A drawer session as the API returns it: named for people by its register and cashier. */
export type DrawerSessionJson = Omit<DrawerSessionRecord, "zReport"> & SessionNames & {
  zReport?: Record<string, unknown> | null;
};

function sessionNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Drawer session "${id}" does not exist`);
}

/** 409 `drawer_not_open` for a closed session, naming its register and cashier. */
export async function drawerNotOpen(db: Db, id: string): Promise<ConflictError> {
  const names = (await findSessionNames(db, [id])).get(id);
  const which = names
    ? `The drawer session of register ${names.register.name}` +
      (names.cashier ? ` opened by ${names.cashier.name}` : "")
    : `Drawer session "${id}"`;
  return new ConflictError("drawer_not_open", `${which} is closed`);
}

/** The drawer session, or 404. */
export async function requireDrawerSession(db: Db, id: string): Promise<DrawerSessionRecord> {
  const session = await findDrawerSession(db, id);
  if (!session) throw sessionNotFound(id);
  return session;
}

/**
 * {@link requireDrawerSession} with the row locked until the caller commits (see
 * `lockDrawerSession`: `"share"` to record into it, `"update"` to close it).
 */
export async function requireLockedDrawerSession(
  trx: Transaction<Database>,
  id: string,
  strength: "share" | "update",
): Promise<DrawerSessionRecord> {
  const session = await lockDrawerSession(trx, id, strength);
  if (!session) throw sessionNotFound(id);
  return session;
}

/**
 * The open drawer session a refund at `locationId` is recorded in (locked FOR SHARE): see
 * `pickOpenSession` in `domain/pos/drawer_choice.ts`.
 */
export async function chooseOpenSession(
  trx: Transaction<Database>,
  locationId: string,
  registerId: string | undefined,
  preferredRegisterId: string | null,
): Promise<DrawerSessionRecord> {
  const sessions = await lockOpenSessions(trx, registerId ? { registerId } : { locationId });
  return pickOpenSession(sessions, locationId, registerId, preferredRegisterId);
}

/** The names of one session (its register and cashier; they exist while it does). */
async function namesOf(db: Db, sessionId: string): Promise<SessionNames> {
  const names = (await findSessionNames(db, [sessionId])).get(sessionId);
  if (!names) throw sessionNotFound(sessionId);
  return names;
}

/**
 * The session as returned by the API: an open one gets its live expected balance (its X
 * report names it), a closed one its frozen Z report.
 */
async function sessionJson(
  deps: Pick<AppDeps, "db" | "clock">,
  session: DrawerSessionRecord,
): Promise<DrawerSessionJson> {
  if (session.status === "open") {
    const [report] = await buildSessionReports(deps.db, [session], deps.clock.now());
    return {
      ...session,
      // The X report names it (names are loaded with the report's rows).
      register: report!.register!,
      cashier: report!.cashier,
      expectedBalance: formatMoney(report!.cashAccountability.expectedBalance),
      zReport: null,
    };
  }
  const zReport = session.zReport
    ? await frozenZReport(deps.db, { ...session, zReport: session.zReport }, deps.clock.now())
    : null;
  return {
    ...session,
    ...(await namesOf(deps.db, session.id)),
    zReport: zReport as unknown as Record<string, unknown> | null,
  };
}

export async function openDrawer(
  deps: AppDeps,
  actor: Actor,
  input: { registerId: string; openingBalance: string },
): Promise<DrawerSessionJson> {
  const register = await findRegister(deps.db, input.registerId);
  if (!register) {
    throw new InvalidReferenceError("registerId", `Register "${input.registerId}" does not exist`);
  }
  if (!register.isActive) {
    throw new InvalidReferenceError("registerId", `Register "${register.name}" is inactive`);
  }
  let session: DrawerSessionRecord;
  try {
    session = await withTransaction(deps.db, async (trx) => {
      const now = deps.clock.now();
      const created = await insertDrawerSession(trx, {
        id: deps.ids.uuid(),
        registerId: register.id,
        locationId: register.locationId,
        openingBalance: input.openingBalance,
        openedBy: actingUserId(actor),
        now,
      });
      await audit(deps, trx, actor, {
        action: "pos.drawer_opened",
        entityType: "drawer_session",
        entityId: created.id,
        details: {
          registerId: register.id,
          locationId: register.locationId,
          openingBalance: created.openingBalance,
        },
      });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        "drawer_already_open",
        `Register "${register.name}" already has an open drawer session`,
      );
    }
    throw error;
  }
  return {
    ...session,
    ...(await namesOf(deps.db, session.id)),
    expectedBalance: session.openingBalance,
    zReport: null,
  };
}

export async function getDrawer(
  deps: Pick<AppDeps, "db" | "clock">,
  id: string,
): Promise<DrawerSessionJson> {
  return await sessionJson(deps, await requireDrawerSession(deps.db, id));
}

/** The open session of a register, or the (oldest) open session at a location. */
export async function currentDrawer(
  deps: Pick<AppDeps, "db" | "clock">,
  where: { registerId?: string; locationId?: string },
): Promise<DrawerSessionJson> {
  if (!where.registerId && !where.locationId) {
    throw new ValidationError([{ path: "registerId", message: "Give registerId or locationId" }]);
  }
  const [session] = await findOpenSessions(deps.db, where);
  if (!session) throw new NotFoundError("no_open_drawer", "No drawer is open");
  return await sessionJson(deps, session);
}

/** A page of sessions, each named by its register and cashier (one more query per page). */
export async function listDrawers(
  deps: Pick<AppDeps, "db">,
  params: ListParams & Omit<DrawerFilters, "fromAt" | "toAt"> & { from?: string; to?: string },
) {
  const range = await timeRange(deps.db, params.from, params.to);
  const page = await listDrawerSessions(deps.db, { ...params, ...range });
  const names = await findSessionNames(deps.db, page.data.map((s) => s.id));
  return {
    ...page,
    data: page.data.map((s) => ({ ...s, ...names.get(s.id)! })),
  };
}

export async function closeDrawer(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { closingBalance: string; notes?: string },
): Promise<DrawerSessionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const session = await requireLockedDrawerSession(trx, id, "update");
    if (session.status !== "open") throw await drawerNotOpen(trx, id);
    const now = deps.clock.now();
    const closingBalanceCents = parseMoney(input.closingBalance, "closingBalance");
    const [report] = await buildSessionReports(trx, [session], now, {
      sessionId: id,
      closingBalanceCents,
      closedAt: now,
    });
    const cash = report!.cashAccountability;
    const zReport = drawerReportToJson(report!);
    const closed = await closeDrawerSessionRow(trx, id, {
      closingBalance: formatMoney(closingBalanceCents),
      expectedBalance: formatMoney(cash.expectedBalance),
      overShort: formatMoney(cash.overShort ?? 0),
      notes: input.notes ?? null,
      closedBy: actingUserId(actor),
      report: zReport,
      now,
    });
    await audit(deps, trx, actor, {
      action: "pos.drawer_closed",
      entityType: "drawer_session",
      entityId: id,
      details: {
        registerId: session.registerId,
        closingBalance: closed.closingBalance,
        expectedBalance: closed.expectedBalance,
        overShort: closed.overShort,
      },
    });
    return {
      ...closed,
      register: zReport.register!,
      cashier: zReport.cashier,
      zReport: zReport as unknown as Record<string, unknown>,
    };
  });
}
