/** Zod schemas of repair tickets, their status, history, estimate approval and claim tag (API §9). */
import { z } from "zod";
import { REPAIR_STATUSES } from "../../domain/repairs/status_machine.ts";
import { isoDate, listQuery, moneyString, nonNegativeMoney, timestamp, uuid } from "../schemas.ts";

export const repairStatus = z.enum(REPAIR_STATUSES);
const text = (max: number) => z.string().trim().min(1).max(max);
const note = text(2000).describe("Free text, at most 2,000 characters");
const serialNumber = z.string().trim().min(1).max(100)
  .describe("The instrument's serial number (free text; matched case-insensitively)");

export const estimateApprovalSchema = z.object({
  amount: moneyString.describe("The estimate when it was approved"),
  approvedByName: z.string().describe("Who approved it (the customer or their representative)"),
  method: z.enum(["in_person", "phone", "email", "sms"]),
  note: z.string().nullable(),
  recordedBy: uuid.nullable().describe("The user who recorded the approval"),
  at: timestamp,
});

export const ticketSchema = z.object({
  id: uuid,
  ticketNumber: z.string().describe("R-000123, assigned by the server"),
  accountId: uuid,
  accountName: z.string(),
  memberId: uuid.nullable(),
  status: repairStatus,
  itemDescription: z.string(),
  itemCount: z.int(),
  serialNumber: z.string().nullable(),
  isBatch: z.boolean().describe("Whether the ticket belongs to a batch (batchId set)"),
  batchId: uuid.nullable(),
  serviceTemplateId: uuid.nullable(),
  estimate: moneyString.nullable(),
  estimateApproval: estimateApprovalSchema.nullable(),
  estimateExceeded: z.boolean().describe(
    "customerTotal exceeds the approved (else the current) estimate by more than " +
      "repairEstimateTolerancePercent; false without an estimate",
  ),
  dueDate: isoDate.nullable(),
  locationId: uuid.nullable(),
  customerTotal: moneyString.describe("Σ quantity × unitPrice of the customer-facing lines"),
  internalCost: moneyString.describe("Σ quantity × unitPrice of the internal (consumable) lines"),
  amountPaid: moneyString.describe(
    "Pre-tax line amounts of completed repair_payment transactions, less refunds",
  ),
  balanceDue: moneyString.describe("customerTotal − amountPaid, never below 0.00"),
  intakeAt: timestamp.nullable().describe("When the ticket first entered intake"),
  createdBy: uuid.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "RepairTicket" });
export type TicketJson = z.output<typeof ticketSchema>;

export const createTicketBody = z.strictObject({
  accountId: uuid,
  memberId: uuid.nullish().describe("A member of the account"),
  itemDescription: text(500),
  itemCount: z.int().min(1).max(10_000).optional().describe("Default 1"),
  serialNumber: serialNumber.nullish(),
  batchId: uuid.nullish().describe("Joins a draft batch"),
  serviceTemplateId: uuid.optional().describe("Copies the template's default line items"),
  estimate: nonNegativeMoney.nullish(),
  dueDate: isoDate.nullish(),
  locationId: uuid.nullish(),
}).meta({ id: "CreateRepairTicketBody" });
export type CreateTicketInput = z.output<typeof createTicketBody>;

export const updateTicketBody = createTicketBody.omit({ serviceTemplateId: true }).partial().meta({
  id: "UpdateRepairTicketBody",
});
export type UpdateTicketInput = z.output<typeof updateTicketBody>;

export const TICKET_SORTS = [
  "createdAt",
  "updatedAt",
  "ticketNumber",
  "status",
  "dueDate",
  "itemDescription",
] as const;

export const ticketListQuery = listQuery({
  sort: TICKET_SORTS,
  defaultSort: "createdAt",
  defaultOrder: "desc",
  filters: {
    status: repairStatus.optional(),
    accountId: uuid.optional(),
    batchId: uuid.optional(),
    serialNumber: serialNumber.optional().describe("Exact, case-insensitive, trimmed"),
    locationId: uuid.optional(),
  },
});
export type TicketListParams = z.output<typeof ticketListQuery>;

export const readyListQuery = listQuery({
  sort: ["readyAt", "ticketNumber", "createdAt", "dueDate"],
  defaultSort: "readyAt",
  filters: { accountId: uuid.optional(), locationId: uuid.optional() },
});

export const statusBody = z.strictObject({ status: repairStatus, note: note.optional() }).meta({
  id: "RepairTicketStatusBody",
});
export const reopenBody = z.strictObject({ note: note.optional() }).optional().meta({
  id: "ReopenRepairTicketBody",
});

export const historyEntrySchema = z.object({
  fromStatus: repairStatus,
  toStatus: repairStatus,
  changedBy: uuid.nullable(),
  changedByName: z.string().nullable(),
  changedAt: timestamp,
  note: z.string().nullable(),
}).meta({ id: "RepairTicketHistoryEntry" });
export type HistoryEntry = z.output<typeof historyEntrySchema>;

export const approveEstimateBody = z.strictObject({
  approvedByName: text(200),
  method: z.enum(["in_person", "phone", "email", "sms"]),
  note: note.optional(),
}).meta({ id: "ApproveEstimateBody" });
export type ApproveEstimateInput = z.output<typeof approveEstimateBody>;

export const claimCheckSchema = z.object({
  ticketNumber: z.string(),
  account: z.object({ id: uuid, name: z.string() }),
  item: z.object({ description: z.string(), count: z.int() }),
  serialNumber: z.string().nullable(),
  intakeAt: timestamp.nullable(),
  estimate: moneyString.nullable(),
  dueDate: isoDate.nullable(),
}).meta({ id: "ClaimCheck" });
export type ClaimCheckJson = z.output<typeof claimCheckSchema>;
