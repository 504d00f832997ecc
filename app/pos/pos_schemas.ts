/** Zod schemas of the point of sale (API §8): request bodies, list queries and responses. */
import { z } from "zod";
import { addressSchema } from "../accounts/account_schemas.ts";
import {
  dateOrTimestamp,
  listQuery,
  money,
  moneyString,
  nonNegativeMoney,
  queryBoolean,
  uuid,
} from "../schemas.ts";

export const positiveMoney = money.refine(
  (v) => !v.startsWith("-") && Number(v) > 0,
  "Must be greater than zero",
);

export const PAYMENT_METHOD_VALUES = ["cash", "card", "check", "store_credit", "other"] as const;
export const paymentMethod = z.enum(PAYMENT_METHOD_VALUES);

export const overrideSchema = z.strictObject({
  code: z.string().max(32).describe("8 digits: the approver's employee number followed by PIN"),
}).describe(
  "Manager override: another active user's employee number + PIN (holder of pos.override). " +
    "Every invalid code (unknown number, wrong PIN, an approver without pos.override, a " +
    "disabled one, the caller's own, a locked number) gets one and the same 403 " +
    "`manager_override_required`; each counts toward that employee number's PIN lockout " +
    "(5 per 15 minutes, shared with PIN login), also under parallel attempts.",
);

// ================================================================ registers

export const createRegisterBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  locationId: uuid,
  isActive: z.boolean().optional(),
}).meta({ id: "CreateRegisterBody" });

export const updateRegisterBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  locationId: uuid.optional(),
  isActive: z.boolean().optional(),
}).meta({ id: "UpdateRegisterBody" });

export const registerListQuery = listQuery({
  sort: ["name", "createdAt"],
  defaultSort: "name",
  filters: { locationId: uuid.optional(), isActive: queryBoolean.optional() },
});

export const registerSchema = z.object({
  id: uuid,
  name: z.string(),
  locationId: uuid,
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Register" });

// ================================================================ transactions

export const itemInput = z.strictObject({
  kind: z.enum(["sale", "labor", "part"]).optional(),
  productId: uuid.optional(),
  unitId: uuid.optional(),
  description: z.string().trim().min(1).max(500).optional(),
  quantity: z.int().min(1).max(100_000),
  unitPrice: nonNegativeMoney.optional(),
  taxCategory: z.enum(["goods", "service"]).optional(),
});
export type ItemInput = z.output<typeof itemInput>;

/** `POST /transactions/:id/items`: a line, and the override a price below the catalogue may need. */
export const addItemBody = itemInput.extend({
  override: overrideSchema.optional().describe(
    "Needed when the line is priced below its product's price beyond the discount threshold",
  ),
}).meta({ id: "AddTransactionItemBody" });
export type AddItemInput = z.output<typeof addItemBody>;

export const createTransactionBody = z.strictObject({
  locationId: uuid,
  registerId: uuid.optional(),
  accountId: uuid.optional(),
  type: z.enum(["sale", "repair_payment", "rental_payment"]).default("sale"),
  repairTicketId: uuid.optional(),
  rentalChargeIds: z.array(uuid).min(1).max(100).optional().describe(
    "Required for a rental_payment (and only there): the unpaid rental charges it pays, one " +
      "line each",
  ),
  items: z.array(itemInput).min(1).max(200).optional().describe(
    "Required, except for a repair_payment: without items it gets its ticket's lines",
  ),
  override: overrideSchema.optional().describe(
    "Needed when a line priced below its product's price passes the discount threshold",
  ),
}).meta({ id: "CreateTransactionBody" });
export type CreateTransactionInput = z.output<typeof createTransactionBody>;

export const updateItemBody = z.strictObject({
  kind: z.enum(["sale", "labor", "part"]).optional(),
  description: z.string().trim().min(1).max(500).optional(),
  quantity: z.int().min(1).max(100_000).optional(),
  unitPrice: nonNegativeMoney.optional(),
  taxCategory: z.enum(["goods", "service"]).optional(),
  override: overrideSchema.optional().describe(
    "Needed when the edit prices the line below its product's price beyond the discount " +
      "threshold, or raises the discount share beyond it and the share a manager approved",
  ),
}).meta({ id: "UpdateTransactionItemBody" });
export type UpdateItemInput = z.output<typeof updateItemBody>;

/** `DELETE /transactions/:id/items/:itemId`: optional, the override a removal may need. */
export const removeItemBody = z.strictObject({
  override: overrideSchema.optional().describe(
    "Needed when removing the line raises the discount share beyond the threshold and the " +
      "share a manager approved",
  ),
}).optional().meta({ id: "RemoveTransactionItemBody" });

export const discountBody = z.strictObject({
  kind: z.enum(["percent", "amount"]),
  value: nonNegativeMoney.describe('Percent ("10.00" = 10 %) or amount; 0 removes the discount'),
  override: overrideSchema.optional(),
}).meta({ id: "TransactionDiscountBody" });

export const paymentBody = z.strictObject({
  method: paymentMethod,
  amount: positiveMoney,
  reference: z.string().trim().max(200).optional(),
  tendered: nonNegativeMoney.optional(),
}).meta({ id: "AddPaymentBody" });

export const completeBody = z.strictObject({
  registerId: uuid.optional(),
  override: overrideSchema.optional().describe(
    "Needed when the sale's discount share is beyond the threshold and beyond the share a " +
      "manager approved for it",
  ),
}).optional().meta({ id: "CompleteTransactionBody" });

export const voidBody = z.strictObject({
  reason: z.string().trim().min(1).max(500),
  override: overrideSchema.optional(),
}).meta({ id: "VoidTransactionBody" });

export const refundBody = z.strictObject({
  items: z.array(z.strictObject({ itemId: uuid, quantity: z.int().min(1).max(100_000) })).min(1)
    .max(200),
  method: paymentMethod,
  reason: z.string().trim().min(1).max(500),
  registerId: uuid.optional().describe(
    "Register whose open drawer records the refund (needed when several are open)",
  ),
  override: overrideSchema.optional(),
}).meta({ id: "RefundBody" });

export const itemParams = z.object({ id: uuid, itemId: uuid });

export const transactionListQuery = listQuery({
  sort: ["createdAt", "completedAt", "total", "number"],
  defaultSort: "createdAt",
  defaultOrder: "desc",
  filters: {
    accountId: uuid.optional(),
    itemSearch: z.string().trim().min(1).max(200).optional(),
    status: z.enum(["pending", "complete", "voided"]).optional(),
    type: z.enum(["sale", "repair_payment", "rental_payment", "refund"]).optional(),
    locationId: uuid.optional(),
    registerId: uuid.optional(),
    drawerSessionId: uuid.optional(),
    from: dateOrTimestamp.optional(),
    to: dateOrTimestamp.optional(),
  },
});

export const transactionItemSchema = z.object({
  id: uuid,
  kind: z.enum(["sale", "labor", "part"]),
  productId: uuid.nullable(),
  unitId: uuid.nullable(),
  originalItemId: uuid.nullable(),
  rentalChargeId: uuid.nullable().describe("The rental charge a rental_payment line pays"),
  description: z.string(),
  quantity: z.int(),
  unitPrice: moneyString,
  taxCategory: z.enum(["goods", "service"]),
  isConsumable: z.boolean(),
  gross: moneyString,
  discount: moneyString,
  net: moneyString,
  tax: moneyString,
  total: moneyString,
  refundedQuantity: z.int(),
}).meta({ id: "TransactionItem" });

export const paymentSchema = z.object({
  id: uuid,
  method: paymentMethod,
  amount: moneyString,
  tendered: moneyString,
  change: moneyString,
  reference: z.string().nullable(),
  isRefund: z.boolean(),
  createdAt: z.string(),
}).meta({ id: "Payment" });

const receiptNumber = z.string().describe(
  "The transaction's human number, its sequence `number` written S-0001234 (7 digits)",
);

const transactionFields = {
  id: uuid,
  number: z.int(),
  receiptNumber,
  type: z.enum(["sale", "repair_payment", "rental_payment", "refund"]),
  status: z.enum(["pending", "complete", "voided"]),
  locationId: uuid,
  registerId: uuid.nullable(),
  accountId: uuid.nullable(),
  drawerSessionId: uuid.nullable(),
  repairTicketId: uuid.nullable(),
  rentalId: uuid.nullable().describe("The rental a buyout sale buys out"),
  originalTransactionId: uuid.nullable(),
  discount: z.object({ kind: z.enum(["percent", "amount"]), value: moneyString }).nullable(),
  subtotal: moneyString,
  discountTotal: moneyString,
  taxTotal: moneyString,
  total: moneyString,
  amountPaid: moneyString,
  balanceDue: moneyString,
  taxExempt: z.boolean(),
  reason: z.string().nullable(),
  voidReason: z.string().nullable(),
  createdBy: uuid.nullable(),
  approvedBy: uuid.nullable(),
  completedBy: uuid.nullable(),
  voidedBy: uuid.nullable(),
  completedAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const transactionSummarySchema = z.object(transactionFields).meta({
  id: "TransactionSummary",
});
export const transactionSchema = z.object({
  ...transactionFields,
  items: z.array(transactionItemSchema),
  payments: z.array(paymentSchema),
}).meta({ id: "Transaction" });

export const addItemResponse = z.object({
  item: transactionItemSchema,
  transaction: transactionSchema,
}).meta({ id: "AddTransactionItemResponse" });
export const paymentResponse = z.object({
  payment: paymentSchema,
  transaction: transactionSchema,
}).meta({ id: "AddPaymentResponse" });

export const receiptSchema = z.object({
  store: z.object({
    name: z.string(),
    address: addressSchema.nullable(),
    phone: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
  }),
  locationName: z.string().nullable(),
  transactionId: uuid,
  receiptNumber,
  type: z.enum(["sale", "repair_payment", "rental_payment", "refund"]),
  status: z.enum(["pending", "complete", "voided"]),
  at: z.string(),
  localTime: z.string(),
  originalTransactionId: uuid.nullable(),
  originalReceiptNumber: z.string().nullable().describe(
    "A refund's original transaction, S-0001234 (null unless a refund)",
  ),
  refundReason: z.string().nullable().describe("A refund's reason (null unless a refund)"),
  repair: z.object({
    ticketNumber: z.string(),
    itemDescription: z.string().describe("The instrument as the ticket describes it"),
    serialNumber: z.string().nullable(),
  }).nullable().describe("The repair ticket a repair_payment pays (null otherwise)"),
  taxExempt: z.boolean(),
  taxExemptCertificate: z.string().nullable().describe(
    "The certificate number of the exemption that made the transaction tax-exempt, as it was " +
      "when the transaction was priced (null when not exempt, or exempt from before it was kept)",
  ),
  cashierName: z.string().nullable(),
  customerName: z.string().nullable(),
  lines: z.array(z.object({
    description: z.string(),
    quantity: z.int(),
    unitPrice: moneyString,
    amount: moneyString,
  })),
  subtotal: moneyString,
  discount: moneyString,
  tax: moneyString,
  total: moneyString,
  payments: z.array(z.object({
    method: paymentMethod,
    amount: moneyString,
    tendered: moneyString,
    change: moneyString,
    reference: z.string().nullable(),
  })),
  amountPaid: moneyString,
  balanceDue: moneyString,
  change: moneyString,
}).meta({ id: "Receipt" });

export const receiptEmailBody = z.strictObject({
  to: z.string().trim().max(254).pipe(z.email()).optional().describe(
    "Recipient; default the email of the transaction's account",
  ),
}).optional().meta({ id: "ReceiptEmailBody" });

export const receiptEmailResult = z.object({
  emailId: uuid.describe("The message in the email outbox"),
  to: z.string(),
  receiptNumber,
  status: z.literal("queued"),
}).meta({ id: "ReceiptEmailResult" });
