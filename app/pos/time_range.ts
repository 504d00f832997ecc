/** The `from`/`to` query values of POS lists (drawer sessions, transactions). */
import { storeDayRange } from "../../domain/calendar.ts";
import { BadInputError } from "../../domain/errors.ts";
import type { Db } from "../db/database.ts";
import { findStoreTimezone } from "../platform/store_repo.ts";

/**
 * `from`/`to` query values: a YYYY-MM-DD is a whole store-local day (`to` inclusive), a
 * timestamp is an instant (`to` exclusive). The store's time zone is read only when needed.
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
