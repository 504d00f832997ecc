/**
 * The scan's lookup (API §17): one statement, one UNION ALL branch per kind the caller may
 * view, each an equality on an indexed, normalised value (never a trigram or ILIKE scan):
 *  - products: `lower(sku)` (products_sku_key) and the canonical UPC (products_upc_code_idx);
 *  - units: `lower(serial_number)` (units_serial_lower_idx);
 *  - repair tickets by serial number: `lower(serial_number)` (repair_tickets_serial_idx), open
 *    tickets first, then the newest (domain/counter/serial_tickets.ts decides which count);
 *  - repair tickets, rentals, accounts, transactions: their unique number keys.
 * Plain reads of other features' tables (their owners still do every write). A branch is capped
 * at a few rows: more than one hit is an ambiguity the clerk resolves from the candidates.
 */
import { type RawBuilder, sql } from "kysely";
import { CLOSED_STATUSES } from "../../domain/repairs/status_machine.ts";
import { CompiledStatements } from "../db/compiled.ts";
import type { Db } from "../db/database.ts";
import { isoStringOrNull } from "../db/rows.ts";
import {
  findProductInColumns,
  listProductColumns,
  type ProductRecord,
} from "../inventory/products_repo.ts";
import { findUnitInColumns, listUnitColumns, type UnitRecord } from "../inventory/units_repo.ts";

export type ScanKind = "product" | "unit" | "repair_ticket" | "rental" | "account" | "transaction";

/** The normalised values one scan looks for (null: that kind is not searched). */
export interface ScanLookup {
  /** Trimmed, lower-case code: SKU and serial number. */
  productText: string | null;
  /** Canonical barcode form (domain/counter/scan_code.ts `canonicalBarcode`). */
  productBarcode: string | null;
  unitSerial: string | null;
  ticketNumber: string | null;
  /** Trimmed, lower-case code: the serial number on a repair ticket. */
  ticketSerial: string | null;
  rentalNumber: number | null;
  accountNumber: string | null;
  transactionNumber: number | null;
}

export interface ScanHitRow {
  kind: ScanKind;
  id: string;
  /** The record's name or number, and a second detail, for its label. */
  title: string;
  detail: string | null;
  /** A repair ticket's status and creation (null for other kinds). */
  status: string | null;
  createdAt: string | null;
  /** A repair ticket found by the serial number on it (not by its number). */
  bySerial: boolean;
  /** A product hit's product and a unit hit's unit, read by the same statement. */
  product?: ProductRecord;
  unit?: UnitRecord;
}

/** The kind of the hits of repair tickets by serial number, in the statement only. */
const TICKET_BY_SERIAL = "repair_ticket_serial";

/** Prefixes of the product and unit columns beside each hit. */
const PRODUCT = "product_";
const UNIT = "unit_";

const CANDIDATES_PER_KIND = 10;

/** One statement per set of kinds looked for (compiled once each). */
const scanStatements = new CompiledStatements();

export async function findScanHits(db: Db, lookup: ScanLookup): Promise<ScanHitRow[]> {
  const values = Object.values(lookup).filter((value) => value !== null);
  const shape = Object.entries(lookup).map(([kind, value]) => value === null ? "" : kind).join();
  const rows = await scanStatements.run(db, shape, values, () => scanHitsQuery(lookup).compile(db));
  return rows.map((row) => ({
    kind: row.kind === TICKET_BY_SERIAL ? "repair_ticket" : row.kind,
    id: row.id,
    title: row.title,
    detail: row.detail,
    status: row.status,
    createdAt: isoStringOrNull(row.at),
    bySerial: row.kind === TICKET_BY_SERIAL,
    product: findProductInColumns(row, PRODUCT),
    unit: findUnitInColumns(row, UNIT),
  }));
}

type HitRow =
  & Omit<ScanHitRow, "kind" | "createdAt" | "bySerial" | "product" | "unit">
  & { kind: ScanKind | typeof TICKET_BY_SERIAL; at: Date | string | null }
  & Record<string, unknown>;

/** The hits of every kind looked for, each product or unit hit with its record's columns. */
function scanHitsQuery(lookup: ScanLookup): RawBuilder<HitRow> {
  const hits = hitsQuery(lookup);
  return sql<HitRow>`SELECT h.kind, h.id, h.title, h.detail, h.status, h.at,
      ${listProductColumns("p", PRODUCT)},
      ${listUnitColumns("u", UNIT)}
    FROM (${hits}) AS h
    LEFT JOIN products p ON h.kind = 'product' AND p.id = h.id
    LEFT JOIN units u ON h.kind = 'unit' AND u.id = h.id`;
}

function hitsQuery(lookup: ScanLookup): RawBuilder<unknown> {
  const branches: RawBuilder<unknown>[] = [];
  const limit = sql.lit(CANDIDATES_PER_KIND);
  if (lookup.productText !== null) {
    branches.push(
      sql`(SELECT 'product' AS kind, id, name AS title, sku AS detail, NULL::text AS status, NULL::timestamptz AS at
      FROM products WHERE lower(sku) = ${lookup.productText} AND deleted_at IS NULL
      LIMIT ${limit})`,
    );
  }
  if (lookup.productBarcode !== null) {
    branches.push(
      sql`(SELECT 'product' AS kind, id, name AS title, sku AS detail, NULL::text AS status, NULL::timestamptz AS at
      FROM products
      WHERE (CASE WHEN btrim(upc) ~ '^[0-9]{12}$' THEN '0' || btrim(upc) ELSE lower(btrim(upc)) END)
        = ${lookup.productBarcode}
        AND deleted_at IS NULL AND upc IS NOT NULL
      LIMIT ${limit})`,
    );
  }
  if (lookup.unitSerial !== null) {
    branches.push(sql`(SELECT 'unit' AS kind, u.id, p.name AS title, u.serial_number AS detail,
        NULL::text AS status, NULL::timestamptz AS at
      FROM units u JOIN products p ON p.id = u.product_id
      WHERE lower(u.serial_number) = ${lookup.unitSerial}
        AND u.deleted_at IS NULL AND u.serial_number IS NOT NULL
      LIMIT ${limit})`);
  }
  if (lookup.ticketNumber !== null) {
    branches.push(sql`(SELECT 'repair_ticket' AS kind, id, ticket_number AS title,
        item_description AS detail, status, created_at AS at
      FROM repair_tickets WHERE ticket_number = ${lookup.ticketNumber} AND deleted_at IS NULL
      LIMIT ${limit})`);
  }
  if (lookup.ticketSerial !== null) {
    const closed = sql.join(CLOSED_STATUSES.map((status) => sql.lit(status)));
    branches.push(sql`(SELECT ${sql.lit(TICKET_BY_SERIAL)} AS kind, id, ticket_number AS title,
        item_description AS detail, status, created_at AS at
      FROM repair_tickets
      WHERE lower(serial_number) = ${lookup.ticketSerial}
        AND serial_number IS NOT NULL AND deleted_at IS NULL
      ORDER BY status IN (${closed}), created_at DESC, id DESC
      LIMIT ${limit})`);
  }
  if (lookup.rentalNumber !== null) {
    branches.push(sql`(SELECT 'rental' AS kind, r.id, r.number::text AS title, a.name AS detail,
        NULL::text AS status, NULL::timestamptz AS at
      FROM rentals r JOIN accounts a ON a.id = r.account_id
      WHERE r.number = ${lookup.rentalNumber} AND r.deleted_at IS NULL
      LIMIT ${limit})`);
  }
  if (lookup.accountNumber !== null) {
    branches.push(sql`(SELECT 'account' AS kind, id, account_number AS title, name AS detail,
        NULL::text AS status, NULL::timestamptz AS at
      FROM accounts WHERE account_number = ${lookup.accountNumber} AND deleted_at IS NULL
      LIMIT ${limit})`);
  }
  if (lookup.transactionNumber !== null) {
    branches.push(sql`(SELECT 'transaction' AS kind, id, number::text AS title,
        total::text AS detail, NULL::text AS status, NULL::timestamptz AS at
      FROM transactions WHERE number = ${lookup.transactionNumber}
      LIMIT ${limit})`);
  }
  // No kind at all: a statement that finds nothing.
  if (branches.length === 0) {
    return sql`SELECT NULL::text AS kind, NULL::uuid AS id, NULL::text AS title,
      NULL::text AS detail, NULL::text AS status, NULL::timestamptz AS at WHERE false`;
  }
  return sql.join(branches, sql` UNION ALL `);
}
