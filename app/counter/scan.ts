/**
 * The counter's scan (API §17 `GET /scan/:code`, `ops scan CODE`): one exact lookup of a
 * scanned or typed code over every kind of record the caller may view, answering the record
 * itself (the same JSON as its own GET), 404 when nothing matches, 409 `ambiguous` with the
 * candidates when several records do, and 400 `invalid_check_digit` for a misread barcode.
 *
 * A kind is searched only when its module is enabled and the caller holds its view
 * permission; otherwise it is treated as absent (its records are neither found nor named).
 * A serial number finds units and, on repair tickets, the tickets the pure
 * `ticketsNamedBySerial()` keeps (the open ones, else the last repair unless a unit carries it).
 */
import { formatAccountNumber } from "../../domain/accounts/naming.ts";
import type { Permission } from "../../domain/auth/permissions.ts";
import { MAX_SCAN_CODE_LENGTH, readScanCode } from "../../domain/counter/scan_code.ts";
import { ticketsNamedBySerial } from "../../domain/counter/serial_tickets.ts";
import {
  BadInputError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { formatMoney, parseMoney } from "../../domain/money.ts";
import { formatReceiptNumber } from "../../domain/pos/receipt_number.ts";
import { formatRentalNumber } from "../../domain/rentals/rental_status.ts";
import { formatTicketNumber } from "../../domain/repairs/ticket_money.ts";
import { getAccount } from "../accounts/accounts.ts";
import type { Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import { requireProduct } from "../inventory/products.ts";
import { requireUnit } from "../inventory/units.ts";
import { getTransaction } from "../pos/transactions.ts";
import { getRental } from "../rentals/rentals.ts";
import { getTicket } from "../repairs/tickets.ts";
import { findScanHits, type ScanHitRow, type ScanKind, type ScanLookup } from "./scan_repo.ts";

export type { ScanKind };

export interface ScanCandidate {
  kind: ScanKind;
  id: string;
  label: string;
}

export interface ScanResult extends ScanCandidate {
  record: unknown;
}

/** Who may see each kind: its module and its view permission. */
const KIND_ACCESS: Record<ScanKind, { module: string; permission: Permission }> = {
  product: { module: "inventory", permission: "inventory.view" },
  unit: { module: "inventory", permission: "inventory.view" },
  repair_ticket: { module: "repairs", permission: "repairs.view" },
  rental: { module: "rentals", permission: "rentals.view" },
  account: { module: "accounts", permission: "accounts.view" },
  transaction: { module: "pos", permission: "pos.view" },
};

async function visibleKinds(deps: AppDeps, actor: Actor): Promise<Set<ScanKind>> {
  const visible = new Set<ScanKind>();
  const modules = new Map<string, boolean>();
  for (
    const [kind, access] of Object.entries(KIND_ACCESS) as [ScanKind, typeof KIND_ACCESS.product][]
  ) {
    if (!actor.permissions.has(access.permission)) continue;
    if (!modules.has(access.module)) {
      modules.set(access.module, await deps.modules.isEnabled(access.module));
    }
    if (modules.get(access.module)) visible.add(kind);
  }
  return visible;
}

function labelOf(hit: ScanHitRow): string {
  switch (hit.kind) {
    case "product":
      return `${hit.title} (${hit.detail})`;
    case "unit":
      return `${hit.title}, serial ${hit.detail}`;
    case "repair_ticket":
      return `${hit.title} ${hit.detail ?? ""}`.trim();
    case "rental":
      return `${formatRentalNumber(Number(hit.title))} ${hit.detail ?? ""}`.trim();
    case "account":
      return `${hit.detail} (${hit.title})`;
    case "transaction":
      return `${formatReceiptNumber(Number(hit.title))} ${
        formatMoney(parseMoney(hit.detail ?? "0"))
      }`;
  }
}

function recordOf(deps: AppDeps, hit: ScanHitRow): Promise<unknown> {
  const { kind, id } = hit;
  switch (kind) {
    case "product":
      return hit.product ? Promise.resolve(hit.product) : requireProduct(deps.db, id);
    case "unit":
      return hit.unit ? Promise.resolve(hit.unit) : requireUnit(deps.db, id);
    case "repair_ticket":
      return getTicket(deps, id);
    case "rental":
      return getRental(deps, id);
    case "account":
      return getAccount(deps, id);
    case "transaction":
      return getTransaction(deps.db, id);
  }
}

export async function scanCode(deps: AppDeps, actor: Actor, raw: string): Promise<ScanResult> {
  if (Array.from(raw).length > MAX_SCAN_CODE_LENGTH) {
    throw new ValidationError([{
      path: "code",
      message: `A code has at most ${MAX_SCAN_CODE_LENGTH} characters`,
    }]);
  }
  const code = readScanCode(raw);
  if (!code) throw new ValidationError([{ path: "code", message: "The code is empty" }]);
  const kinds = await visibleKinds(deps, actor);
  const lookup: ScanLookup = {
    productText: kinds.has("product") ? code.text : null,
    productBarcode: kinds.has("product") ? code.barcode : null,
    unitSerial: kinds.has("unit") ? code.text : null,
    ticketNumber: kinds.has("repair_ticket") && code.ticketNumber !== null
      ? formatTicketNumber(code.ticketNumber)
      : null,
    ticketSerial: kinds.has("repair_ticket") ? code.text : null,
    rentalNumber: kinds.has("rental") ? code.rentalNumber : null,
    accountNumber: kinds.has("account") && code.accountNumber !== null
      ? formatAccountNumber(code.accountNumber)
      : null,
    transactionNumber: kinds.has("transaction") ? code.receiptNumber : null,
  };
  const found = await findScanHits(deps.db, lookup);
  const bySerial = ticketsNamedBySerial(
    found.filter((hit): hit is ScanHitRow & { status: string; createdAt: string } =>
      hit.bySerial && hit.status !== null && hit.createdAt !== null
    ),
    found.some((hit) => hit.kind === "unit"),
  );
  // A product found by SKU and by UPC at once is one candidate (a ticket by number and serial).
  const seen = new Set<string>();
  const hits = [...found.filter((hit) => !hit.bySerial), ...bySerial].filter((hit) => {
    const key = `${hit.kind}:${hit.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (hits.length === 0) {
    if (code.badCheckDigit) {
      throw new BadInputError(
        "invalid_check_digit",
        `"${code.text}" is not a valid UPC-A or EAN-13 barcode: its check digit is wrong`,
      );
    }
    throw new NotFoundError("not_found", "Nothing matches this code");
  }
  const candidates = hits.map((hit) => ({ kind: hit.kind, id: hit.id, label: labelOf(hit) }));
  if (candidates.length > 1) {
    throw new ConflictError(
      "ambiguous",
      `${candidates.length} records match this code; choose one`,
      { candidates },
    );
  }
  const only = candidates[0]!;
  return { ...only, record: await recordOf(deps, hits[0]!) };
}
