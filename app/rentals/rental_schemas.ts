/** Zod schemas of rentals, their charges, returns, buyouts and charge generation (API §13). */
import { z } from "zod";
import { RENTAL_STATUSES } from "../../domain/rentals/rental_status.ts";
import {
  isoDate,
  listQuery,
  money,
  moneyString,
  nonNegativeMoney,
  percent,
  queryBoolean,
  timestamp,
  uuid,
} from "../schemas.ts";
import { productSchema, unitSchema } from "../inventory/inventory_schemas.ts";
import { addressSchema } from "../accounts/account_schemas.ts";

export const rentalStatus = z.enum(RENTAL_STATUSES);
export const billingInterval = z.enum(["monthly", "weekly"]);
const notes = z.string().trim().max(2000).describe("Free text, at most 2,000 characters");
const positiveMoney = money.refine((v) => !v.startsWith("-") && !/^0+(\.0+)?$/.test(v), {
  message: "Must be more than 0.00",
});

export const rentToOwnSchema = z.object({
  purchasePrice: moneyString.describe("What the instrument costs to own outright"),
  equityPercent: z.string().describe('Share of each paid charge that builds equity ("50.00")'),
});

export const rentalSchema = z.object({
  id: uuid,
  rentalNumber: z.string().describe("L-000123, assigned by the server"),
  accountId: uuid,
  accountName: z.string(),
  memberId: uuid.nullable(),
  productId: uuid,
  productName: z.string(),
  unitId: uuid,
  serialNumber: z.string().nullable().describe("The rented unit's serial number"),
  startDate: isoDate,
  dueDate: isoDate.nullable().describe("When the instrument is due back"),
  billingInterval,
  rate: moneyString.describe("The charge of each billing period"),
  deposit: moneyString.nullable(),
  rentToOwn: rentToOwnSchema.nullable(),
  status: rentalStatus,
  isOverdue: z.boolean().describe("Active and past its dueDate (store-local today)"),
  balanceDue: moneyString.describe("Σ amount of the rental's unpaid charges"),
  equity: moneyString.describe("Rent-to-own equity: Σ equity accrued by the paid charges"),
  payoffAmount: moneyString.nullable().describe(
    "purchasePrice − equity, never below 0.00; null when not rent-to-own",
  ),
  notes: z.string().nullable(),
  returnCondition: z.string().nullable(),
  returnNotes: z.string().nullable(),
  returnedAt: timestamp.nullable(),
  cancelledAt: timestamp.nullable(),
  purchasedAt: timestamp.nullable(),
  purchaseTransactionId: uuid.nullable().describe("The completed buyout sale"),
  createdBy: uuid.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "Rental" });
export type RentalJson = z.output<typeof rentalSchema>;

const rentToOwnBody = z.strictObject({
  purchasePrice: positiveMoney,
  equityPercent: percent,
});

export const createRentalBody = z.strictObject({
  accountId: uuid,
  memberId: uuid.nullish().describe("A member of the account (the student)"),
  productId: uuid,
  unitId: uuid.describe("A unit of that product in status in_stock"),
  startDate: isoDate,
  dueDate: isoDate.nullish(),
  billingInterval,
  rate: positiveMoney,
  deposit: nonNegativeMoney.nullish(),
  rentToOwn: rentToOwnBody.nullish(),
  notes: notes.nullish(),
}).meta({ id: "CreateRentalBody" });
export type CreateRentalInput = z.output<typeof createRentalBody>;

export const updateRentalBody = z.strictObject({
  memberId: uuid.nullish(),
  dueDate: isoDate.nullish(),
  rate: positiveMoney.optional().describe("Applies to charges generated from now on"),
  deposit: nonNegativeMoney.nullish(),
  notes: notes.nullish(),
}).meta({ id: "UpdateRentalBody" });
export type UpdateRentalInput = z.output<typeof updateRentalBody>;

export const RENTAL_SORTS = [
  "createdAt",
  "updatedAt",
  "rentalNumber",
  "startDate",
  "dueDate",
  "status",
] as const;

export const rentalListQuery = listQuery({
  sort: RENTAL_SORTS,
  defaultSort: "createdAt",
  defaultOrder: "desc",
  filters: {
    status: rentalStatus.optional(),
    accountId: uuid.optional(),
    memberId: uuid.optional(),
    productId: uuid.optional(),
    overdue: queryBoolean.optional().describe("true: active rentals past their dueDate"),
    pastDue: queryBoolean.optional().describe(
      "true: rentals with a charge unpaid more than rentalGraceDays after its due date",
    ),
  },
});
export type RentalListParams = z.output<typeof rentalListQuery>;

export const returnRentalBody = z.strictObject({
  condition: z.string().trim().min(1).max(50).describe("A value of the item-conditions lookup"),
  toRepair: z.boolean().optional().describe("true: the unit goes to in_repair, not in_stock"),
  notes: notes.optional(),
}).meta({ id: "ReturnRentalBody" });
export type ReturnRentalInput = z.output<typeof returnRentalBody>;

export const buyoutBody = z.strictObject({
  locationId: uuid.describe("Where the buyout sale is rung up"),
}).meta({ id: "RentalBuyoutBody" });

export const chargeSchema = z.object({
  id: uuid,
  rentalId: uuid,
  periodStart: isoDate,
  periodEnd: isoDate.describe("Inclusive: the day before the next period starts"),
  dueDate: isoDate,
  amount: moneyString,
  status: z.enum(["unpaid", "paid"]),
  paidTransactionId: uuid.nullable(),
  paidAt: timestamp.nullable(),
  equity: moneyString.describe("Rent-to-own equity the charge accrued when paid"),
}).meta({ id: "RentalCharge" });
export type ChargeJson = z.output<typeof chargeSchema>;

export const generateChargesBody = z.strictObject({
  through: isoDate.optional().describe(
    "Bill every period starting on or before this date (default: store-local today; at " +
      "most 366 days ahead)",
  ),
}).optional().meta({ id: "GenerateRentalChargesBody" });

export const generateChargesResult = z.object({
  created: z.int().describe("Charges created"),
  skipped: z.int().describe("Periods up to `through` that already had a charge"),
  rentals: z.int().describe("Active rentals looked at"),
  through: isoDate,
}).meta({ id: "GenerateRentalChargesResult" });
export type GenerateChargesResult = z.output<typeof generateChargesResult>;

export const serialParams = z.object({
  serial: z.string().max(100).describe("The unit's serial number (case-insensitive, trimmed)"),
});

export const timelineEventSchema = z.object({
  at: timestamp,
  kind: z.enum([
    "received",
    "status_changed",
    "condition_changed",
    "sold",
    "refunded",
    "rented",
    "returned",
    "repair_opened",
    "repair_closed",
    "bought_out",
  ]),
  actorId: uuid.nullable(),
  refs: z.object({
    transactionId: uuid.optional(),
    rentalId: uuid.optional(),
    repairTicketId: uuid.optional(),
    accountId: uuid.optional(),
  }),
  details: z.record(z.string(), z.unknown()),
});

export const unitStorySchema = z.object({
  unit: unitSchema,
  product: productSchema,
  timeline: z.array(timelineEventSchema),
}).meta({ id: "UnitStory" });

const printedAddress = addressSchema.nullable();

export const rentalAgreementSchema = z.object({
  rentalId: uuid,
  rentalNumber: z.string().describe("L-000123"),
  status: rentalStatus,
  store: z.object({
    name: z.string(),
    address: printedAddress,
    phone: z.string().nullable(),
    email: z.string().nullable(),
  }).describe("The first party: the store"),
  account: z.object({
    id: uuid,
    accountNumber: z.string().describe("A-000042"),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: printedAddress,
  }).describe("The second party: the customer's account"),
  member: z.object({ id: uuid, name: z.string() }).nullable().describe(
    "The student the instrument is rented for (a member of the account), if named",
  ),
  product: z.object({ id: uuid, name: z.string() }),
  unit: z.object({
    id: uuid,
    serialNumber: z.string().nullable().describe("The rented unit's serial number"),
  }),
  startDate: isoDate,
  dueDate: isoDate.nullable(),
  billingInterval,
  rate: moneyString.describe("The charge of each billing period"),
  deposit: moneyString.nullable(),
  rentToOwn: z.object({
    purchasePrice: moneyString,
    equityPercent: z.string().describe('Share of each paid charge that builds equity ("50.00")'),
    equity: moneyString.describe("Equity accrued so far"),
    payoffAmount: moneyString.describe("purchasePrice − equity, never below 0.00"),
  }).nullable(),
  createdAt: timestamp,
}).meta({ id: "RentalAgreement" });
export type RentalAgreementJson = z.output<typeof rentalAgreementSchema>;
