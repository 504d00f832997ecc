/**
 * A unit's life story (API §13 "Unit life story"): `GET /units/by-serial/:serial` finds the
 * unit by serial number (case-insensitive, trimmed) and merges what every feature knows of it
 * into one timeline, oldest first (`domain/rentals/unit_timeline.ts`). One indexed query per
 * source: the unit's history, its POS lines, its rentals, the repair tickets carrying its
 * serial. It lives with rentals, the one feature that sits above all of those it reads.
 */
import { NotFoundError } from "../../domain/errors.ts";
import { formatReceiptNumber } from "../../domain/pos/receipt_number.ts";
import { type TimelineEvent, unitTimeline } from "../../domain/rentals/unit_timeline.ts";
import type { AppDeps } from "../deps.ts";
import { requireProduct } from "../inventory/products.ts";
import type { ProductRecord } from "../inventory/products_repo.ts";
import { findUnitHistory } from "../inventory/unit_history_repo.ts";
import { findUnitBySerial, type UnitRecord } from "../inventory/units_repo.ts";
import { findUnitSales } from "../pos/unit_sales_repo.ts";
import { findTicketsBySerial } from "../repairs/serial_tickets_repo.ts";
import { findRentalsOfUnit } from "./rentals_repo.ts";

export interface UnitStory {
  unit: UnitRecord;
  product: ProductRecord;
  timeline: TimelineEvent[];
}

export async function getUnitStory(
  deps: Pick<AppDeps, "db">,
  rawSerial: string,
): Promise<UnitStory> {
  const serial = rawSerial.trim();
  const unit = serial === "" ? undefined : await findUnitBySerial(deps.db, serial);
  if (!unit) throw new NotFoundError("not_found", `No unit has serial number "${serial}"`);
  const [product, history, sales, rentals, repairs] = await Promise.all([
    requireProduct(deps.db, unit.productId),
    findUnitHistory(deps.db, unit.id),
    findUnitSales(deps.db, unit.id),
    findRentalsOfUnit(deps.db, unit.id),
    findTicketsBySerial(deps.db, serial),
  ]);
  const timeline = unitTimeline({
    history,
    sales: sales.map((s) => ({ ...s, receiptNumber: formatReceiptNumber(s.number) })),
    rentals: rentals.map((r) => ({ ...r, rentalId: r.id })),
    repairs,
  });
  return { unit, product, timeline };
}
