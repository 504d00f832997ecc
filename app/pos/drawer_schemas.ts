/**
 * Zod schemas of drawer sessions, their cash adjustments and reports (API §8): request bodies,
 * list queries and responses.
 */
import { z } from "zod";
import {
  dateOrTimestamp,
  isoDate,
  listQuery,
  moneyString,
  nonNegativeMoney,
  nonNegativeSessionMoney,
  uuid,
} from "../schemas.ts";
import { overrideSchema, paymentMethod, positiveMoney } from "./pos_schemas.ts";

export const openDrawerBody = z.strictObject({
  registerId: uuid,
  openingBalance: nonNegativeMoney,
}).meta({ id: "OpenDrawerBody" });

export const closeDrawerBody = z.strictObject({
  closingBalance: nonNegativeSessionMoney.describe(
    "The cash counted in the drawer, up to 14 digits before the point: a session's cash " +
      "sums many amounts",
  ),
  notes: z.string().trim().max(2000).optional(),
}).meta({ id: "CloseDrawerBody" });

export const currentDrawerQuery = z.strictObject({
  registerId: uuid.optional(),
  locationId: uuid.optional(),
});

export const drawerListQuery = listQuery({
  sort: ["openedAt", "closedAt", "createdAt"],
  defaultSort: "openedAt",
  defaultOrder: "desc",
  filters: {
    registerId: uuid.optional(),
    locationId: uuid.optional(),
    status: z.enum(["open", "closed"]).optional(),
    from: dateOrTimestamp.optional(),
    to: dateOrTimestamp.optional(),
  },
});

export const adjustmentBody = z.strictObject({
  direction: z.enum(["in", "out"]),
  amount: positiveMoney,
  reason: z.string().trim().min(1).max(500),
  override: overrideSchema.optional(),
}).meta({ id: "DrawerAdjustmentBody" });

export const adjustmentListQuery = listQuery({
  sort: ["createdAt"],
  defaultSort: "createdAt",
});

export const adjustmentSchema = z.object({
  id: uuid,
  drawerSessionId: uuid,
  direction: z.enum(["in", "out"]),
  amount: moneyString,
  reason: z.string(),
  createdBy: uuid.nullable(),
  approvedBy: uuid.nullable(),
  createdAt: z.string(),
}).meta({ id: "DrawerAdjustment" });

const salesSummarySchema = z.object({
  transactionCount: z.int(),
  grossSales: moneyString,
  discounts: moneyString,
  refunds: moneyString,
  netSales: moneyString,
  tax: moneyString,
  total: moneyString,
});

const cashAccountabilitySchema = z.object({
  openingBalance: moneyString,
  cashSales: moneyString,
  cashRefunds: moneyString,
  adjustmentsIn: moneyString,
  adjustmentsOut: moneyString,
  expectedBalance: moneyString,
  closingBalance: moneyString.nullable(),
  overShort: moneyString.nullable(),
});

const namedRef = z.object({ id: uuid, name: z.string() });

const voidsSchema = z.object({
  count: z.int(),
  amount: moneyString.describe("Σ the voided transactions' totals (a positive magnitude)"),
  byCashier: z.array(z.object({
    cashier: namedRef.nullable().describe("Who voided them; null: a user no longer known"),
    count: z.int(),
    amount: moneyString,
  })).describe("By cashier name"),
}).describe(
  "Transactions voided in the session(s), which count nowhere else: a completed one in the " +
    "session it was completed in, a pending one in the session of its register open when it " +
    "was voided (without a register, in none)",
);

const reportSections = {
  generatedAt: z.string(),
  salesSummary: salesSummarySchema,
  paymentBreakdown: z.array(
    z.object({ method: paymentMethod, count: z.int(), amount: moneyString }),
  ),
  discounts: z.array(z.object({
    transactionId: uuid,
    receiptNumber: z.string().nullable().describe("S-0001234"),
    kind: z.enum(["percent", "amount"]).nullable(),
    value: z.string().nullable(),
    amount: moneyString,
  })),
  cashAccountability: cashAccountabilitySchema,
  adjustments: z.array(z.object({
    id: uuid,
    direction: z.enum(["in", "out"]),
    amount: moneyString,
    reason: z.string(),
    createdAt: z.string(),
    createdBy: uuid.nullable(),
    approvedBy: uuid.nullable(),
  })),
  voids: voidsSchema,
};

const sessionNames = {
  register: namedRef.nullable().describe("The register (its name when the Z was frozen)"),
  cashier: namedRef.nullable().describe("Who opened the session"),
};

export const drawerReportSchema = z.object({
  kind: z.enum(["X", "Z"]),
  sessionId: uuid,
  registerId: uuid.nullable(),
  ...sessionNames,
  locationId: uuid.nullable(),
  status: z.enum(["open", "closed"]),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  ...reportSections,
}).meta({ id: "DrawerReport" });

export const dailyReportSchema = z.object({
  locationId: uuid,
  date: z.string(),
  ...reportSections,
  sessions: z.array(z.object({
    sessionId: uuid,
    registerId: uuid.nullable(),
    ...sessionNames,
    kind: z.enum(["X", "Z"]),
    status: z.enum(["open", "closed"]),
    openedAt: z.string(),
    closedAt: z.string().nullable(),
    transactionCount: z.int(),
    total: moneyString,
    openingBalance: moneyString,
    expectedBalance: moneyString,
    closingBalance: moneyString.nullable(),
    overShort: moneyString.nullable(),
  })),
}).meta({ id: "DailyReport" });

export const dailyReportQuery = z.strictObject({
  locationId: uuid,
  date: isoDate.optional().describe("Store-local date; default today"),
});

export const drawerSessionSchema = z.object({
  id: uuid,
  registerId: uuid,
  register: namedRef,
  cashier: namedRef.nullable().describe("Who opened it"),
  locationId: uuid,
  status: z.enum(["open", "closed"]),
  openingBalance: moneyString,
  closingBalance: moneyString.nullable(),
  expectedBalance: moneyString.nullable(),
  overShort: moneyString.nullable(),
  notes: z.string().nullable(),
  openedBy: uuid.nullable(),
  closedBy: uuid.nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  zReport: drawerReportSchema.nullable().optional(),
}).meta({ id: "DrawerSession" });
