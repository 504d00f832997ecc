/**
 * Schemas of identity and access (API §2, §3): request bodies (validation + OpenAPI + CLI)
 * and the user, role and permission objects every route returns.
 */
import { z } from "zod";
import { isPermission, type Permission } from "../../domain/auth/permissions.ts";
import { passwordProblem } from "../../domain/auth/password_rules.ts";
import { EMPLOYEE_NUMBER_PATTERN, PIN_CODE_PATTERN, PIN_PATTERN } from "../../domain/auth/pin.ts";
import { listQuery, queryBoolean, uuid } from "../schemas.ts";

export const email = z.string().trim().max(254).pipe(z.email("Invalid email"))
  .describe("Email address (matched case-insensitively)");

export const password = z.string().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).describe("8 to 72 bytes (UTF-8)");

const personName = z.string().trim().min(1).max(100);
export const employeeNumber = z.string().regex(EMPLOYEE_NUMBER_PATTERN, "Expected 4 digits");

export const permissionId = z.string().refine(isPermission, {
  message: "Unknown permission identifier",
}).transform((v) => v as Permission).describe("Permission identifier <domain>.<action>");

// --- Objects returned ---------------------------------------------------------------

export const roleSummarySchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export type RoleSummary = z.output<typeof roleSummarySchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  employeeNumber: z.string(),
  isActive: z.boolean(),
  hasPin: z.boolean(),
  roles: z.array(roleSummarySchema),
  createdAt: z.string(),
});
export type User = z.output<typeof userSchema>;

export const roleSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isSystem: z.boolean(),
  permissions: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.output<typeof roleSchema>;

export const permissionSchema = z.object({
  id: z.string(),
  domain: z.string(),
  action: z.string(),
  description: z.string(),
});

export const resetLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type ResetLink = z.output<typeof resetLinkSchema>;

export const userEnvelope = z.object({ user: userSchema });

export const loginResponse = z.object({
  accessToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiresIn: z.int().describe("Seconds until the token expires"),
  user: userSchema,
});

export const pinLoginResponse = z.object({
  accessToken: z.string().describe("A `pos` token"),
  tokenType: z.literal("Bearer"),
  expiresIn: z.int(),
  lockTimeoutMinutes: z.int().describe("The POS screen locks after this many idle minutes"),
  user: userSchema,
});

export const myPermissionsResponse = z.object({
  permissions: z.array(z.string()),
  roles: z.array(roleSummarySchema),
});

// --- Request bodies -----------------------------------------------------------------

export const registerBody = z.strictObject({
  email,
  password,
  firstName: personName,
  lastName: personName,
});

export const loginBody = z.strictObject({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});

export const updateMeBody = z.strictObject({
  firstName: personName.optional(),
  lastName: personName.optional(),
});

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: password,
});

export const forgotPasswordBody = z.strictObject({ email: z.string().trim().min(1).max(254) });

export const resetPasswordBody = z.strictObject({
  token: z.string().min(1).max(200),
  newPassword: password,
});

export const setPinBody = z.strictObject({
  pin: z.string().regex(PIN_PATTERN, "Expected 4 digits"),
});

export const pinLoginBody = z.strictObject({
  code: z.string().regex(PIN_CODE_PATTERN, "Expected 8 digits: employee number then PIN"),
});

export const createUserBody = z.strictObject({
  email,
  firstName: personName,
  lastName: personName,
  password: password.optional(),
  employeeNumber: employeeNumber.optional(),
  roleIds: z.array(uuid).max(50).optional(),
});

export const updateUserBody = z.strictObject({
  firstName: personName.optional(),
  lastName: personName.optional(),
  employeeNumber: employeeNumber.optional(),
});

export const userStatusBody = z.strictObject({ isActive: z.boolean() });

export const assignRoleBody = z.strictObject({ roleId: uuid });

export const createRoleBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(permissionId).max(100),
});

export const updateRoleBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(permissionId).max(100).optional(),
});

export const userListQuery = listQuery({
  sort: ["email", "lastName", "createdAt"],
  defaultSort: "lastName",
  filters: { isActive: queryBoolean.optional() },
});

export const roleListQuery = listQuery({
  sort: ["name", "slug", "createdAt"],
  defaultSort: "name",
});

export const userRoleParams = z.object({ id: uuid, roleId: uuid });
export const userIdParams = z.object({ userId: uuid });
