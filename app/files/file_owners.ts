/**
 * Which records files can belong to, and how to tell that one exists. A feature whose table
 * can own files registers it here with ONE line in `OWNER_CHECKERS` (e.g.
 * `product: (db, id) => idExists(db, "products", id),`). Until then, uploads for that
 * entity type are refused with 400, because their owner cannot be checked.
 */
import type { Db } from "../db/database.ts";
import { idExists } from "../db/rows.ts";
import { findIdentifier, findMemberAccountId } from "../accounts/accounts_repo.ts";
import { findProduct } from "../inventory/inventory_repo.ts";

export const FILE_ENTITY_TYPES = [
  "user",
  "member",
  "member_identifier",
  "product",
  "rental_agreement",
  "repair_ticket",
] as const;
export type FileEntityType = typeof FILE_ENTITY_TYPES[number];

export type OwnerExists = (db: Db, id: string) => Promise<boolean>;

const OWNER_CHECKERS: Partial<Record<FileEntityType, OwnerExists>> = {
  user: (db, id) => idExists(db, "users", id),
  member: async (db, id) => (await findMemberAccountId(db, id)) !== undefined,
  member_identifier: async (db, id) => (await findIdentifier(db, id)) !== undefined,
  product: async (db, id) => (await findProduct(db, id)) !== undefined,
};

/** The existence check of an entity type, or undefined when no feature registered one yet. */
export function ownerCheckerFor(entityType: FileEntityType): OwnerExists | undefined {
  return OWNER_CHECKERS[entityType];
}
