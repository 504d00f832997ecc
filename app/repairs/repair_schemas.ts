/**
 * Zod schemas of what hangs from repair tickets (line items, notes, photos) and of batches
 * and service templates (API §9). Tickets themselves: ticket_schemas.ts.
 */
import { z } from "zod";
import { BATCH_STATUSES } from "../../domain/repairs/batch_status.ts";
import { listQuery, moneyString, nonNegativeMoney, timestamp, uuid } from "../schemas.ts";
import { repairStatus } from "./ticket_schemas.ts";

const text = (max: number) => z.string().trim().min(1).max(max);
const lineKind = z.enum(["labor", "part"]);
const quantity = z.int().min(1).max(10_000);

// ---- Line items ---------------------------------------------------------------------------

export const lineItemSchema = z.object({
  id: uuid,
  ticketId: uuid,
  kind: lineKind,
  description: z.string(),
  quantity: z.int(),
  unitPrice: moneyString,
  amount: moneyString.describe("quantity × unitPrice"),
  productId: uuid.nullable(),
  isInternal: z.boolean().describe(
    "The product is a consumable: counts in internalCost, never in customerTotal",
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "RepairLineItem" });
export type LineItemJson = z.output<typeof lineItemSchema>;

export const createLineItemBody = z.strictObject({
  kind: lineKind,
  description: text(500).optional().describe("Default: the product's name"),
  quantity,
  unitPrice: nonNegativeMoney.optional().describe("Default: the product's price"),
  productId: uuid.optional(),
}).meta({ id: "CreateRepairLineItemBody" });
export type CreateLineItemInput = z.output<typeof createLineItemBody>;

export const updateLineItemBody = z.strictObject({
  kind: lineKind.optional(),
  description: text(500).optional(),
  quantity: quantity.optional(),
  unitPrice: nonNegativeMoney.optional(),
  productId: uuid.nullable().optional().describe("null: the line names no product any more"),
}).meta({ id: "UpdateRepairLineItemBody" });
export type UpdateLineItemInput = z.output<typeof updateLineItemBody>;

export const lineItemListQuery = listQuery({
  sort: ["createdAt", "kind", "description"],
  defaultSort: "createdAt",
  filters: { kind: lineKind.optional() },
});

export const lineItemParams = z.object({ id: uuid, itemId: uuid });

// ---- Notes --------------------------------------------------------------------------------

const visibility = z.enum(["internal", "customer"]);

export const noteSchema = z.object({
  id: uuid,
  ticketId: uuid,
  content: z.string(),
  visibility,
  authorId: uuid.nullable(),
  authorName: z.string().nullable(),
  ticketStatus: repairStatus.describe("The ticket's status when the note was written"),
  createdAt: timestamp,
}).meta({ id: "RepairNote" });
export type NoteJson = z.output<typeof noteSchema>;

export const createNoteBody = z.strictObject({
  content: text(10_000),
  visibility: visibility.default("internal"),
}).meta({ id: "CreateRepairNoteBody" });

export const noteListQuery = listQuery({
  sort: ["createdAt", "visibility"],
  defaultSort: "createdAt",
  filters: { visibility: visibility.optional() },
});

export const noteParams = z.object({ id: uuid, noteId: uuid });

// ---- Photos -------------------------------------------------------------------------------

export const PHOTO_PHASES = ["intake", "in_progress", "completed"] as const;
export const photoPhase = z.enum(PHOTO_PHASES);

export const photoListQuery = listQuery({
  sort: ["createdAt", "size"],
  defaultSort: "createdAt",
  filters: { phase: photoPhase.optional() },
});

/** The multipart form of POST /repair-tickets/:id/photos. */
export const photoForm = z.strictObject({
  file: z.any().describe("The photo (JPEG, PNG, WebP, GIF; PDF accepted like any file)"),
  phase: photoPhase,
}).meta({ id: "RepairPhotoUpload" });
export const photoFields = photoForm.omit({ file: true });

// ---- Batches ------------------------------------------------------------------------------

export const batchStatus = z.enum(BATCH_STATUSES);

export const batchSchema = z.object({
  id: uuid,
  name: z.string(),
  accountId: uuid,
  accountName: z.string(),
  notes: z.string().nullable(),
  status: batchStatus,
  ticketCount: z.int().describe("Live tickets in the batch"),
  submittedAt: timestamp.nullable(),
  submittedBy: uuid.nullable(),
  decidedAt: timestamp.nullable().describe("When it was approved or rejected"),
  decidedBy: uuid.nullable(),
  approvalNote: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  createdBy: uuid.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "RepairBatch" });
export type BatchJson = z.output<typeof batchSchema>;

export const createBatchBody = z.strictObject({
  name: text(200),
  accountId: uuid,
  notes: z.string().trim().max(5000).nullish(),
}).meta({ id: "CreateRepairBatchBody" });
export const updateBatchBody = createBatchBody.partial().meta({ id: "UpdateRepairBatchBody" });

export const batchListQuery = listQuery({
  sort: ["createdAt", "name", "status"],
  defaultSort: "createdAt",
  defaultOrder: "desc",
  filters: { status: batchStatus.optional(), accountId: uuid.optional() },
});

export const approveBatchBody = z.strictObject({ note: text(2000).optional() }).optional().meta({
  id: "ApproveRepairBatchBody",
});
export const rejectBatchBody = z.strictObject({ reason: text(2000) }).meta({
  id: "RejectRepairBatchBody",
});

// ---- Service templates --------------------------------------------------------------------

export const templateLineSchema = z.object({
  kind: lineKind,
  description: z.string().nullable(),
  quantity: z.int(),
  unitPrice: moneyString.nullable(),
  productId: uuid.nullable(),
});

export const templateLineBody = z.strictObject({
  kind: lineKind,
  description: text(500).optional(),
  quantity,
  unitPrice: nonNegativeMoney.optional(),
  productId: uuid.optional(),
});

export const templateSchema = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  itemCategory: z.string(),
  defaultLineItems: z.array(templateLineSchema),
  estimatedMinutes: z.int().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "ServiceTemplate" });
export type TemplateJson = z.output<typeof templateSchema>;

export const createTemplateBody = z.strictObject({
  name: text(200),
  description: z.string().trim().max(5000).nullish(),
  itemCategory: text(100),
  defaultLineItems: z.array(templateLineBody).max(100).default([]),
  estimatedMinutes: z.int().min(1).max(100_000).nullish(),
}).meta({ id: "CreateServiceTemplateBody" });
export type CreateTemplateInput = z.output<typeof createTemplateBody>;

export const updateTemplateBody = z.strictObject({
  name: text(200).optional(),
  description: z.string().trim().max(5000).nullish(),
  itemCategory: text(100).optional(),
  defaultLineItems: z.array(templateLineBody).max(100).optional(),
  estimatedMinutes: z.int().min(1).max(100_000).nullish(),
}).meta({ id: "UpdateServiceTemplateBody" });
export type UpdateTemplateInput = z.output<typeof updateTemplateBody>;

export const templateListQuery = listQuery({
  sort: ["name", "itemCategory", "createdAt"],
  defaultSort: "name",
  filters: { itemCategory: text(100).optional().describe("Exact, case-insensitive") },
});
