/** Zod schemas of the vault: HTTP bodies, queries, responses (API §12), shared with `ops vault`. */
import { z } from "zod";
import { listQuery, timestamp, uuid } from "../schemas.ts";
import { VAULT_LEVELS } from "../../domain/vault/access.ts";
import {
  MASTER_PASSWORD_MAX_CHARS,
  MASTER_PASSWORD_MIN_CHARS,
  masterPasswordProblem,
} from "../../domain/vault/master_password.ts";

/** A master password as typed (never trimmed: spaces are characters like any other). */
const typedPassword = z.string().min(1, "Required").max(MASTER_PASSWORD_MAX_CHARS * 4)
  .describe("The master password");

/** A new master password: at least 12 characters (code points), at most 1,024. */
export const newMasterPassword = z.string().max(MASTER_PASSWORD_MAX_CHARS * 4)
  .superRefine((value, ctx) => {
    const problem = masterPasswordProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("A new master password: 12 to 1,024 characters")
  .meta({ minLength: MASTER_PASSWORD_MIN_CHARS, maxLength: MASTER_PASSWORD_MAX_CHARS });

// ---- Lifecycle ------------------------------------------------------------------------------

export const vaultStatusSchema = z.object({
  initialized: z.boolean().describe("Whether a master password was ever set"),
  locked: z.boolean().describe(
    "Whether this server process holds no data key (always true before initialization)",
  ),
}).meta({ id: "VaultStatus" });
export type VaultStatus = z.output<typeof vaultStatusSchema>;

export const initializeVaultBody = z.strictObject({ masterPassword: newMasterPassword }).meta({
  id: "InitializeVaultBody",
});
export const unlockVaultBody = z.strictObject({ masterPassword: typedPassword }).meta({
  id: "UnlockVaultBody",
});
export const changeMasterPasswordBody = z.strictObject({
  currentPassword: typedPassword,
  newPassword: newMasterPassword,
}).meta({ id: "ChangeMasterPasswordBody" });

// ---- Categories -----------------------------------------------------------------------------

const level = z.enum(VAULT_LEVELS);
const name = z.string().trim().min(1).max(100);
const description = z.string().trim().max(2000).nullish();

export const vaultCategorySchema = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  level: level.describe("The caller's effective level on this category"),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "VaultCategory" });
export type VaultCategory = z.output<typeof vaultCategorySchema>;

export const createVaultCategoryBody = z.strictObject({ name, description }).meta({
  id: "CreateVaultCategoryBody",
});
export const updateVaultCategoryBody = createVaultCategoryBody.partial().meta({
  id: "UpdateVaultCategoryBody",
});

export const vaultCategoryListQuery = listQuery({
  sort: ["name", "createdAt"] as const,
  defaultSort: "name",
});

export const vaultGrantSchema = z.object({
  id: uuid,
  categoryId: uuid,
  roleId: uuid.nullable(),
  userId: uuid.nullable(),
  level,
  createdAt: timestamp,
}).meta({ id: "VaultGrant" });
export type VaultGrant = z.output<typeof vaultGrantSchema>;

export const createVaultGrantBody = z.strictObject({
  roleId: uuid.optional(),
  userId: uuid.optional(),
  level,
}).refine((b) => (b.roleId === undefined) !== (b.userId === undefined), {
  message: "Give exactly one of roleId and userId",
  path: ["roleId"],
}).meta({ id: "CreateVaultGrantBody" });

export const grantParams = z.object({ id: uuid, permissionId: uuid });

// ---- Entries --------------------------------------------------------------------------------

const optionalText = (max: number) => z.string().trim().max(max).nullish();
/** A secret as given: kept exactly (no trimming), 1 to 10,000 characters. */
const secret = z.string().min(1).max(10_000).describe("The secret (stored encrypted)");
const notes = z.string().max(10_000).nullish().describe("Notes (stored encrypted)");

export const vaultEntrySchema = z.object({
  id: uuid,
  categoryId: uuid,
  name: z.string(),
  username: z.string().nullable(),
  url: z.string().nullable(),
  createdBy: uuid.nullable(),
  updatedBy: uuid.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
}).meta({ id: "VaultEntry" });
export type VaultEntry = z.output<typeof vaultEntrySchema>;

export const vaultEntryDetailSchema = vaultEntrySchema.extend({
  notes: z.string().nullable().describe("Decrypted notes (only in the entry's own record)"),
}).meta({ id: "VaultEntryDetail" });
export type VaultEntryDetail = z.output<typeof vaultEntryDetailSchema>;

export const createVaultEntryBody = z.strictObject({
  categoryId: uuid,
  name: z.string().trim().min(1).max(200),
  username: optionalText(200),
  url: optionalText(2000),
  notes,
  secret,
}).meta({ id: "CreateVaultEntryBody" });
export type CreateVaultEntryInput = z.output<typeof createVaultEntryBody>;

export const updateVaultEntryBody = createVaultEntryBody.partial().meta({
  id: "UpdateVaultEntryBody",
});
export type UpdateVaultEntryInput = z.output<typeof updateVaultEntryBody>;

export const vaultEntryListQuery = listQuery({
  sort: ["name", "createdAt", "updatedAt"] as const,
  defaultSort: "name",
  filters: { categoryId: uuid.optional().describe("Only this category's entries") },
});

export const revealSchema = z.object({ secret: z.string() }).meta({ id: "VaultSecret" });
