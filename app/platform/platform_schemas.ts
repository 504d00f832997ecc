/** Schemas of store, locations, runtime config and modules (API §4, §15). */
import { z } from "zod";
import { address, percent, uuid } from "../schemas.ts";

function isIanaTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return value.includes("/") || value === "UTC";
  } catch {
    return false;
  }
}

export const timeZone = z.string().refine(
  isIanaTimeZone,
  "Expected an IANA time zone such as America/Chicago",
);

export const storeSchema = z.object({
  name: z.string(),
  timezone: z.string(),
  address: address.nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  logoFileId: z.string().nullable(),
  updatedAt: z.string(),
}).meta({ id: "Store" });

export const updateStoreBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: timeZone.optional(),
  address: address.nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  email: z.email().nullable().optional(),
  logoFileId: uuid.nullable().optional(),
}).meta({ id: "UpdateStoreBody" });

export const locationSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: address.nullable(),
  phone: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: "Location" });

export const createLocationBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  address: address.nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  isActive: z.boolean().optional(),
}).meta({ id: "CreateLocationBody" });

export const updateLocationBody = createLocationBody.partial().meta({ id: "UpdateLocationBody" });

/** The runtime configuration with its defaults (API §4). */
export const configSchema = z.object({
  posLockTimeoutMinutes: z.int().min(1).max(24 * 60),
  managerOverride: z.object({
    void: z.boolean(),
    refund: z.boolean(),
    discount: z.boolean(),
    cashInOut: z.boolean(),
  }),
  discountApprovalThresholdPercent: z.string(),
  taxRates: z.object({ goods: z.string(), service: z.string() }),
  currency: z.string().regex(/^[A-Z]{3}$/),
  lessonSessionWindowDays: z.int().min(1).max(366),
  registrationOpen: z.boolean(),
  upload: z.object({ maxBytes: z.int().min(1), maxFilesPerEntity: z.int().min(1) }),
  repairEstimateTolerancePercent: z.string(),
  rentalGraceDays: z.int().min(0).max(365),
}).meta({ id: "Config" });

export type RuntimeConfig = z.output<typeof configSchema>;

export const DEFAULT_CONFIG: RuntimeConfig = {
  posLockTimeoutMinutes: 15,
  managerOverride: { void: true, refund: true, discount: true, cashInOut: true },
  discountApprovalThresholdPercent: "10.00",
  taxRates: { goods: "0.00", service: "0.00" },
  currency: "USD",
  lessonSessionWindowDays: 28,
  // Closed unless the owner opens it (API §2/§4); the very first user can always register.
  registrationOpen: false,
  upload: { maxBytes: 10 * 1024 * 1024, maxFilesPerEntity: 20 },
  repairEstimateTolerancePercent: "10.00",
  rentalGraceDays: 10,
};

/** PATCH /config: every field optional, nested objects merged into the current value. */
export const updateConfigBody = z.strictObject({
  posLockTimeoutMinutes: z.int().min(1).max(24 * 60).optional(),
  managerOverride: z.strictObject({
    void: z.boolean().optional(),
    refund: z.boolean().optional(),
    discount: z.boolean().optional(),
    cashInOut: z.boolean().optional(),
  }).optional(),
  discountApprovalThresholdPercent: percent.optional(),
  taxRates: z.strictObject({ goods: percent.optional(), service: percent.optional() }).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, "Expected an ISO 4217 code such as USD").optional(),
  lessonSessionWindowDays: z.int().min(1).max(366).optional(),
  registrationOpen: z.boolean().optional(),
  upload: z.strictObject({
    maxBytes: z.int().min(1).max(1024 * 1024 * 1024).optional(),
    maxFilesPerEntity: z.int().min(1).max(10_000).optional(),
  }).optional(),
  repairEstimateTolerancePercent: percent.optional(),
  rentalGraceDays: z.int().min(0).max(365).optional().describe(
    "Days after its due date before an unpaid rental charge is past due",
  ),
}).meta({ id: "UpdateConfigBody" });

export const moduleSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  licensed: z.boolean(),
  enabled: z.boolean(),
  core: z.boolean(),
}).meta({ id: "Module" });

export const updateModuleBody = z.strictObject({ enabled: z.boolean() }).meta({
  id: "UpdateModuleBody",
});

export const healthSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["ok", "unreachable"]),
  version: z.string().optional(),
  uptimeSeconds: z.int().optional(),
}).meta({ id: "Health" });
