/**
 * Drawer sessions and cash adjustments (API §8). One open session per register is enforced
 * by the partial unique index `drawer_sessions_one_open_per_register`. Closing locks the
 * session FOR UPDATE, so it waits for sales being completed against it (they hold it FOR
 * SHARE) and freezes the Z report on the row.
 */
import {
  BadInputError,
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { drawerReportToJson } from "../../domain/pos/drawer_report.ts";
import { formatMoney, parseMoney } from "../../domain/pos/money.ts";
import { storeDayRange } from "../../domain/pos/store_time.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/audit_repo.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { findStoreTimezone } from "../platform/platform_repo.ts";
import { getRuntimeConfig } from "../platform/settings.ts";
import type { ListParams } from "../schemas.ts";
import { approvalDetails, approveAction } from "./overrides.ts";
import {
  type AdjustmentRecord,
  closeDrawerSessionRow,
  type DrawerFilters,
  type DrawerSessionRecord,
  findDrawerSession,
  findOpenSessions,
  findRegister,
  insertAdjustment,
  insertDrawerSession,
  listAdjustments,
  listDrawerSessions,
} from "./pos_repo.ts";
import { buildSessionReports } from "./reports.ts";

export type DrawerSessionJson = Omit<DrawerSessionRecord, "zReport"> & {
  zReport?: Record<string, unknown> | null;
};

function drawerNotOpen(id: string): ConflictError {
  return new ConflictError("drawer_not_open", `Drawer session "${id}" is closed`);
}

/** The session as returned by the API; an open one gets its live expected balance. */
async function sessionJson(
  deps: Pick<AppDeps, "db" | "clock">,
  session: DrawerSessionRecord,
): Promise<DrawerSessionJson> {
  if (session.status === "open") {
    const [report] = await buildSessionReports(deps.db, [session], deps.clock.now());
    return {
      ...session,
      expectedBalance: formatMoney(report!.cashAccountability.expectedBalance),
      zReport: null,
    };
  }
  return session;
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
        openedBy: actor.userId,
        now,
      });
      await recordAudit(trx, {
        actorId: actor.userId,
        actorEmail: actor.email,
        action: "pos.drawer_opened",
        entityType: "drawer_session",
        entityId: created.id,
        details: {
          registerId: register.id,
          locationId: register.locationId,
          openingBalance: created.openingBalance,
        },
      }, { id: deps.ids.uuid(), at: now });
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
  return { ...session, expectedBalance: session.openingBalance, zReport: null };
}

export async function getDrawer(
  deps: Pick<AppDeps, "db" | "clock">,
  id: string,
): Promise<DrawerSessionJson> {
  const session = await findDrawerSession(deps.db, id);
  if (!session) throw new NotFoundError(`Drawer session "${id}" does not exist`);
  return await sessionJson(deps, session);
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
  if (!session) throw new NotFoundError("No drawer is open", "no_open_drawer");
  return await sessionJson(deps, session);
}

export async function listDrawers(
  deps: Pick<AppDeps, "db">,
  params: ListParams & Omit<DrawerFilters, "fromAt" | "toAt"> & { from?: string; to?: string },
) {
  const range = await timeRange(deps.db, params.from, params.to);
  return listDrawerSessions(deps.db, { ...params, ...range });
}

/**
 * `from`/`to` query values: a YYYY-MM-DD is a whole store-local day (`to` inclusive), a
 * timestamp is an instant (`to` exclusive).
 */
export async function timeRange(
  db: Db,
  from: string | undefined,
  to: string | undefined,
): Promise<{ fromAt?: Date; toAt?: Date }> {
  const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  let timeZone: string | undefined;
  const zone = async () => (timeZone ??= await findStoreTimezone(db));
  const result: { fromAt?: Date; toAt?: Date } = {};
  if (from) result.fromAt = isDate(from) ? storeDayRange(from, await zone()).start : new Date(from);
  if (to) result.toAt = isDate(to) ? storeDayRange(to, await zone()).end : new Date(to);
  if (result.fromAt && result.toAt && result.fromAt > result.toAt) {
    throw new BadInputError("validation_failed", "`from` must not be after `to`");
  }
  return result;
}

export async function closeDrawer(
  deps: AppDeps,
  actor: Actor,
  id: string,
  input: { closingBalance: string; notes?: string },
): Promise<DrawerSessionJson> {
  return await withTransaction(deps.db, async (trx) => {
    const session = await findDrawerSession(trx, id, "update");
    if (!session) throw new NotFoundError(`Drawer session "${id}" does not exist`);
    if (session.status !== "open") throw drawerNotOpen(id);
    const now = deps.clock.now();
    const closingBalanceCents = parseMoney(input.closingBalance);
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
      closedBy: actor.userId,
      report: zReport,
      now,
    });
    await recordAudit(trx, {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: "pos.drawer_closed",
      entityType: "drawer_session",
      entityId: id,
      details: {
        registerId: session.registerId,
        closingBalance: closed.closingBalance,
        expectedBalance: closed.expectedBalance,
        overShort: closed.overShort,
      },
    }, { id: deps.ids.uuid(), at: now });
    return { ...closed, zReport: zReport as unknown as Record<string, unknown> };
  });
}

// ================================================================ adjustments

export async function addAdjustment(
  deps: AppDeps,
  actor: Actor,
  sessionId: string,
  input: {
    direction: "in" | "out";
    amount: string;
    reason: string;
    override?: { code: string };
  },
): Promise<AdjustmentRecord> {
  const existing = await findDrawerSession(deps.db, sessionId);
  if (!existing) throw new NotFoundError(`Drawer session "${sessionId}" does not exist`);
  if (existing.status !== "open") throw drawerNotOpen(sessionId);
  const config = await getRuntimeConfig(deps.db);
  const approver = await approveAction(
    deps,
    actor,
    "cashInOut",
    config.managerOverride,
    input.override,
  );
  return await withTransaction(deps.db, async (trx) => {
    const session = await findDrawerSession(trx, sessionId, "share");
    if (!session) throw new NotFoundError(`Drawer session "${sessionId}" does not exist`);
    if (session.status !== "open") throw drawerNotOpen(sessionId);
    const now = deps.clock.now();
    const adjustment = await insertAdjustment(trx, {
      id: deps.ids.uuid(),
      drawerSessionId: sessionId,
      direction: input.direction,
      amount: input.amount,
      reason: input.reason,
      createdBy: actor.userId,
      approvedBy: approver?.userId ?? null,
      now,
    });
    await recordAudit(trx, {
      actorId: actor.userId,
      actorEmail: actor.email,
      action: "pos.cash_adjustment",
      entityType: "drawer_session",
      entityId: sessionId,
      details: {
        adjustmentId: adjustment.id,
        direction: adjustment.direction,
        amount: adjustment.amount,
        reason: adjustment.reason,
        ...approvalDetails(actor, approver),
      },
    }, { id: deps.ids.uuid(), at: now });
    return adjustment;
  });
}

export async function listDrawerAdjustments(
  deps: Pick<AppDeps, "db">,
  sessionId: string,
  params: ListParams,
) {
  if (!(await findDrawerSession(deps.db, sessionId))) {
    throw new NotFoundError(`Drawer session "${sessionId}" does not exist`);
  }
  return listAdjustments(deps.db, sessionId, params);
}
