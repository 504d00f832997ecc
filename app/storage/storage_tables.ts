/** Table types of the storage hub: folders, their permissions (grants) and files. */
import type { Generated } from "kysely";
import type { Timestamp } from "../db/column_types.ts";

export interface StorageFolderTable {
  id: string;
  parent_id: string | null;
  name: string;
  is_public: boolean;
  /** Raised (from `storage_access_seq`) when access narrows: see `ACCESS_CHANGE` in access_repo. */
  access_generation: Generated<number>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A grant of a level on a folder (and its descendants) to one role or one user. */
export interface StorageFolderPermissionTable {
  id: string;
  folder_id: string;
  role_id: string | null;
  user_id: string | null;
  level: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface StorageFileTable {
  id: string;
  folder_id: string;
  name: string;
  content_type: string;
  size: number;
  path: string;
  /** Raised (from `storage_access_seq`) when the file moves: see `ACCESS_CHANGE` in access_repo. */
  access_generation: Generated<number>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StorageTables {
  storage_folders: StorageFolderTable;
  storage_folder_permissions: StorageFolderPermissionTable;
  storage_files: StorageFileTable;
}
