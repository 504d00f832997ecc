/** Schemas of accounts, members and their sub-records (API §5), shared by HTTP, CLI, OpenAPI. */
import { z } from "zod";
import { address, isoDate, listQuery, uuid } from "../schemas.ts";
import { isUnitedStates, normalizeUsState } from "../../domain/accounts/us_states.ts";

/**
 * An address whose `state` is normalised to the USPS code (`new york` → `NY`); an unknown
 * state is refused. Addresses with a non-US `country` keep their state as written.
 */
export const usAddress = address.transform((value, ctx) => {
  if (!isUnitedStates(value.country)) return value;
  const state = normalizeUsState(value.state);
  if (!state) {
    ctx.addIssue({
      code: "custom",
      path: ["state"],
      message: `Unknown US state "${value.state}"; use a USPS code or a full state name`,
    });
    return z.NEVER;
  }
  return { ...value, state };
});

/** A US state code or name → code; anything else (a foreign issuer) kept as written. */
export const issuingState = z.string().trim().min(1).max(60)
  .transform((value) => normalizeUsState(value) ?? value);

const name = z.string().trim().min(1).max(100);
const email = z.string().trim().max(254).pipe(z.email());
const phone = z.string().trim().min(1).max(40);

export const addressSchema = z.object({
  line1: z.string(),
  line2: z.string().nullish(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
  country: z.string().nullish(),
}).meta({ id: "Address" });

// ---------------------------------------------------------------------------- accounts

export const accountSchema = z.object({
  id: z.string(),
  accountNumber: z.string().describe("Server-assigned, e.g. A-000042"),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: addressSchema.nullable(),
  primaryMemberId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Account" });

export const primaryContactBody = z.strictObject({
  firstName: name,
  lastName: name,
  dateOfBirth: isoDate.optional(),
  email: email.optional(),
  phone: phone.optional(),
});

export const createAccountBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  email: email.nullable().optional(),
  phone: phone.nullable().optional(),
  address: usAddress.nullable().optional(),
  primaryContact: primaryContactBody.optional(),
}).superRefine((value, ctx) => {
  if (value.name === undefined && value.primaryContact === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["name"],
      message: "Give a name or a primaryContact (the account is then named after the contact)",
    });
  }
}).meta({ id: "CreateAccountBody" });

export const updateAccountBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  email: email.nullable().optional(),
  phone: phone.nullable().optional(),
  address: usAddress.nullable().optional(),
}).meta({ id: "UpdateAccountBody" });

export const accountListQuery = listQuery({
  sort: ["name", "accountNumber", "createdAt"],
  defaultSort: "name",
});

// ----------------------------------------------------------------------------- members

export const memberSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  isMinor: z.boolean().describe("Derived from dateOfBirth (store-local date) when it is known"),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: addressSchema.nullable(),
  profilePictureFileId: z.string().nullable()
    .describe("The latest file of entityType member, category profile"),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Member" });

export const createMemberBody = z.strictObject({
  firstName: name,
  lastName: name,
  dateOfBirth: isoDate.nullable().optional(),
  isMinor: z.boolean().optional()
    .describe("Only without a dateOfBirth (otherwise it is derived, and sending it is refused)"),
  email: email.nullable().optional(),
  phone: phone.nullable().optional(),
  address: usAddress.nullable().optional(),
}).superRefine((value, ctx) => {
  if (value.isMinor !== undefined && value.dateOfBirth) {
    ctx.addIssue({
      code: "custom",
      path: ["isMinor"],
      message: "isMinor is derived from dateOfBirth and cannot be set with it",
    });
  }
}).meta({ id: "CreateMemberBody" });

export const updateMemberBody = z.strictObject({
  firstName: name.optional(),
  lastName: name.optional(),
  dateOfBirth: isoDate.nullable().optional(),
  isMinor: z.boolean().optional()
    .describe("Only while the member has no dateOfBirth (after this update)"),
  email: email.nullable().optional(),
  phone: phone.nullable().optional(),
  address: usAddress.nullable().optional(),
}).meta({ id: "UpdateMemberBody" });

export const moveMemberBody = z.strictObject({
  accountId: uuid.optional()
    .describe("Destination account; omitted → a new account named after the member"),
}).optional().meta({ id: "MoveMemberBody" });

export const moveMemberResponse = z.object({ member: memberSchema, account: accountSchema }).meta({
  id: "MoveMemberResponse",
});

export const memberListQuery = listQuery({
  sort: ["lastName", "firstName", "createdAt"],
  defaultSort: "lastName",
});

// ------------------------------------------------------------------------- identifiers

export const idTypeSchema = z.object({
  id: z.string(),
  value: z.string(),
  label: z.string(),
  isBuiltIn: z.boolean(),
}).meta({ id: "IdType" });

export const createIdTypeBody = z.strictObject({
  value: z.string().regex(
    /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/,
    "Expected lowercase snake_case, e.g. military_id",
  ).max(50),
  label: z.string().trim().min(1).max(100),
}).meta({ id: "CreateIdTypeBody" });

export const identifierSchema = z.object({
  id: z.string(),
  memberId: z.string(),
  idType: z.string(),
  idNumber: z.string(),
  issuingState: z.string().nullable(),
  issuedDate: z.string().nullable(),
  expiresDate: z.string().nullable(),
  frontFileId: z.string().nullable(),
  backFileId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "MemberIdentifier" });

export const createIdentifierBody = z.strictObject({
  idType: z.string().min(1).max(50).describe("A value from GET /lookups/id-types"),
  idNumber: z.string().trim().min(1).max(100),
  issuingState: issuingState.nullable().optional(),
  issuedDate: isoDate.nullable().optional(),
  expiresDate: isoDate.nullable().optional(),
  frontFileId: uuid.nullable().optional().describe("A file of entityType member_identifier"),
  backFileId: uuid.nullable().optional().describe("A file of entityType member_identifier"),
}).meta({ id: "CreateMemberIdentifierBody" });

export const updateIdentifierBody = z.strictObject({
  idType: z.string().min(1).max(50).optional(),
  idNumber: z.string().trim().min(1).max(100).optional(),
  issuingState: issuingState.nullable().optional(),
  issuedDate: isoDate.nullable().optional(),
  expiresDate: isoDate.nullable().optional(),
  frontFileId: uuid.nullable().optional(),
  backFileId: uuid.nullable().optional(),
}).meta({ id: "UpdateMemberIdentifierBody" });

export const identifierListQuery = listQuery({
  sort: ["idType", "createdAt"],
  defaultSort: "createdAt",
});

// --------------------------------------------------------------------- payment methods

export const PAYMENT_METHOD_TYPES = ["card", "ach", "check", "other"] as const;

export const paymentMethodSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  type: z.enum(PAYMENT_METHOD_TYPES),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  expMonth: z.int().nullable(),
  expYear: z.int().nullable(),
  processor: z.string().nullable(),
  processorPaymentMethodId: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "PaymentMethod" });

const paymentMethodFields = {
  brand: z.string().trim().min(1).max(50).nullable().optional(),
  last4: z.string().regex(/^\d{4}$/, "Expected the last 4 digits").nullable().optional(),
  expMonth: z.int().min(1).max(12).nullable().optional(),
  expYear: z.int().min(2000).max(2200).nullable().optional(),
  processor: z.string().trim().min(1).max(50).nullable().optional(),
  processorPaymentMethodId: z.string().trim().min(1).max(200).nullable().optional(),
  isDefault: z.boolean().optional(),
};

export const createPaymentMethodBody = z.strictObject({
  type: z.enum(PAYMENT_METHOD_TYPES),
  ...paymentMethodFields,
}).meta({ id: "CreatePaymentMethodBody" });

export const updatePaymentMethodBody = z.strictObject({
  type: z.enum(PAYMENT_METHOD_TYPES).optional(),
  ...paymentMethodFields,
}).meta({ id: "UpdatePaymentMethodBody" });

export const paymentMethodListQuery = listQuery({
  sort: ["type", "createdAt"],
  defaultSort: "createdAt",
});

// ---------------------------------------------------------------------- tax exemptions

export const taxExemptionSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  certificateNumber: z.string(),
  issuingState: z.string().nullable(),
  reason: z.string().nullable(),
  expiresDate: z.string().nullable(),
  status: z.enum(["pending", "approved", "revoked"]),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  revokeReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "TaxExemption" });

export const createTaxExemptionBody = z.strictObject({
  certificateNumber: z.string().trim().min(1).max(100),
  issuingState: issuingState.nullable().optional(),
  reason: z.string().trim().max(500).nullable().optional(),
  expiresDate: isoDate.nullable().optional(),
}).meta({ id: "CreateTaxExemptionBody" });

export const updateTaxExemptionBody = z.strictObject({
  certificateNumber: z.string().trim().min(1).max(100).optional(),
  issuingState: issuingState.nullable().optional(),
  reason: z.string().trim().max(500).nullable().optional(),
  expiresDate: isoDate.nullable().optional(),
}).meta({ id: "UpdateTaxExemptionBody" });

export const revokeTaxExemptionBody = z.strictObject({
  reason: z.string().trim().min(1, "A reason is required").max(500),
}).meta({ id: "RevokeTaxExemptionBody" });

export const taxExemptionListQuery = listQuery({
  sort: ["certificateNumber", "status", "createdAt"],
  defaultSort: "createdAt",
  filters: { status: z.enum(["pending", "approved", "revoked"]).optional() },
});

// --------------------------------------------------------------------- processor links

export const processorLinkSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  processor: z.string(),
  externalCustomerId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "ProcessorLink" });

export const createProcessorLinkBody = z.strictObject({
  processor: z.string().trim().min(1).max(50),
  externalCustomerId: z.string().trim().min(1).max(200),
}).meta({ id: "CreateProcessorLinkBody" });

export const updateProcessorLinkBody = createProcessorLinkBody.partial().meta({
  id: "UpdateProcessorLinkBody",
});

export const processorLinkListQuery = listQuery({
  sort: ["processor", "createdAt"],
  defaultSort: "createdAt",
});
