/**
 * Drawer reports (X while open, Z frozen at close) and the daily rollup (API §8): the
 * sessions' reports come from `buildSessionReports()`, the daily rollup from the pure
 * `domain/pos/daily_report.ts`.
 */
import { storeDayRange, storeLocalDate } from "../../domain/calendar.ts";
import { InvalidReferenceError } from "../../domain/errors.ts";
import { buildDailyReport, sessionCountsOnDate } from "../../domain/pos/daily_report.ts";
import type { AppDeps } from "../deps.ts";
import { findLocation } from "../platform/locations_repo.ts";
import { findSessionsForDay } from "./drawer_sessions_repo.ts";
import { requireDrawerSession } from "./drawers.ts";
import {
  type DailyReportJson,
  dailyReportToJson,
  type DrawerReportJson,
  drawerReportToJson,
} from "./report_json.ts";
import { buildSessionReports, frozenZReport } from "./session_reports.ts";

/** `GET /drawers/:id/report`: the X report while open, the frozen Z report once closed. */
export async function getDrawerReport(
  deps: Pick<AppDeps, "db" | "clock">,
  sessionId: string,
): Promise<DrawerReportJson> {
  const session = await requireDrawerSession(deps.db, sessionId);
  if (session.status === "closed" && session.zReport) {
    return await frozenZReport(deps.db, { ...session, zReport: session.zReport }, deps.clock.now());
  }
  const [report] = await buildSessionReports(deps.db, [session], deps.clock.now());
  return drawerReportToJson(report!);
}

/** `GET /reports/daily`: the sessions of a location closed on (or, if open, as of) a date. */
export async function getDailyReport(
  deps: Pick<AppDeps, "db" | "clock" | "storeZone">,
  locationId: string,
  date?: string,
): Promise<DailyReportJson> {
  if (!(await findLocation(deps.db, locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${locationId}" does not exist`);
  }
  const timeZone = await deps.storeZone.get();
  const now = deps.clock.now();
  const day = date ?? storeLocalDate(now, timeZone);
  const includeOpen = storeLocalDate(now, timeZone) === day;
  const candidates = await findSessionsForDay(
    deps.db,
    locationId,
    storeDayRange(day, timeZone),
    includeOpen,
  );
  const sessions = candidates.filter((s) =>
    sessionCountsOnDate(
      { status: s.status, closedAt: s.closedAt ? new Date(s.closedAt) : null },
      day,
      timeZone,
      now,
    )
  );
  const reports = await buildSessionReports(deps.db, sessions, now);
  return dailyReportToJson(
    buildDailyReport({ locationId, date: day, generatedAt: now, sessions: reports }),
  );
}
