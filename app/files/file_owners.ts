/**
 * Which records files can belong to, and how to tell that one exists: the files feature owns
 * this interface and each feature whose records own files fills in its entity types when
 * `createDeps` builds the app (`AppDeps.fileOwners`). Uploads for an entity type nobody
 * filled in yet are refused with 400, because their owner cannot be checked.
 */
import type { Db } from "../db/database.ts";

export const FILE_ENTITY_TYPES = [
  "user",
  "member",
  "member_identifier",
  "product",
  "rental_agreement",
  "repair_ticket",
] as const;
export type FileEntityType = typeof FILE_ENTITY_TYPES[number];

/** Whether the owner exists; called inside the upload's transaction. */
export type OwnerExists = (db: Db, id: string) => Promise<boolean>;

export type FileOwners = Partial<Record<FileEntityType, OwnerExists>>;
