/**
 * Schemas of identity and access (API §2, §3): request bodies (validation + OpenAPI + CLI)
 * and the user, role and permission objects every route returns.
 */
import { z } from "zod";
import { isPermission, type Permission, PERMISSIONS } from "../../domain/auth/permissions.ts";
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
}).transform((v) => v as Permission).describe("Permission identifier <domain>.<action>")
  .meta({ enum: PERMISSIONS.map((p) => p.id) });

// --- Objects returned ---------------------------------------------------------------

export const roleSummarySchema = z.object({ id: z.string(), slug: z.string(), name: z.string() })
  .meta({ id: "RoleSummary" });
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
}).meta({ id: "User" });
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
}).meta({ id: "Role" });
export type Role = z.output<typeof roleSchema>;

export const permissionSchema = z.object({
  id: z.string(),
  domain: z.string(),
  action: z.string(),
  description: z.string(),
}).meta({ id: "Permission" });

export const resetLinkSchema = z.object({ url: z.string(), expiresAt: z.string() }).meta({
  id: "ResetLink",
});
export type ResetLink = z.output<typeof resetLinkSchema>;

export const userEnvelope = z.object({ user: userSchema }).meta({ id: "UserEnvelope" });
/** A user created by an admin; without a password, the link that lets them choose one. */
export const createdUserSchema = z.object({
  user: userSchema,
  resetLink: resetLinkSchema.optional(),
}).meta({ id: "CreatedUser" });
/** Always `{}`: whether the address belongs to a user is not told. */
export const forgotPasswordAccepted = z.object({}).meta({ id: "ForgotPasswordAccepted" });

export const loginResponse = z.object({
  accessToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiresIn: z.int().describe("Seconds until the token expires"),
  user: userSchema,
}).meta({ id: "LoginResponse" });

export const pinLoginResponse = z.object({
  accessToken: z.string().describe("A `pos` token"),
  tokenType: z.literal("Bearer"),
  expiresIn: z.int(),
  lockTimeoutMinutes: z.int().describe("The POS screen locks after this many idle minutes"),
  user: userSchema,
}).meta({ id: "PinLoginResponse" });

export const myPermissionsResponse = z.object({
  permissions: z.array(z.string()),
  roles: z.array(roleSummarySchema),
}).meta({ id: "MyPermissions" });

// --- Request bodies -----------------------------------------------------------------

export const registerBody = z.strictObject({
  email,
  password,
  firstName: personName,
  lastName: personName,
}).meta({ id: "RegisterFirstUserBody" });

export const loginBody = z.strictObject({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
}).meta({ id: "LoginBody" });

export const updateMeBody = z.strictObject({
  firstName: personName.optional(),
  lastName: personName.optional(),
}).meta({ id: "UpdateMeBody" });

export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: password,
}).meta({ id: "ChangePasswordBody" });

export const forgotPasswordBody = z.strictObject({ email: z.string().trim().min(1).max(254) }).meta(
  { id: "ForgotPasswordBody" },
);

export const resetPasswordBody = z.strictObject({
  token: z.string().min(1).max(200),
  newPassword: password,
}).meta({ id: "ResetPasswordBody" });

export const setPinBody = z.strictObject({
  pin: z.string().regex(PIN_PATTERN, "Expected 4 digits"),
}).meta({ id: "SetPinBody" });

export const pinLoginBody = z.strictObject({
  code: z.string().regex(PIN_CODE_PATTERN, "Expected 8 digits: employee number then PIN"),
}).meta({ id: "PinLoginBody" });

export const createUserBody = z.strictObject({
  email,
  firstName: personName,
  lastName: personName,
  password: password.optional(),
  employeeNumber: employeeNumber.optional(),
  roleIds: z.array(uuid).max(50).optional(),
}).meta({ id: "CreateUserBody" });

export const updateUserBody = z.strictObject({
  firstName: personName.optional(),
  lastName: personName.optional(),
  employeeNumber: employeeNumber.optional(),
}).meta({ id: "UpdateUserBody" });

export const userStatusBody = z.strictObject({ isActive: z.boolean() }).meta({
  id: "UserStatusBody",
});

export const assignRoleBody = z.strictObject({ roleId: uuid }).meta({ id: "AssignRoleBody" });

export const createRoleBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(permissionId).max(100),
}).meta({ id: "CreateRoleBody" });

export const updateRoleBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(permissionId).max(100).optional(),
}).meta({ id: "UpdateRoleBody" });

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
