/** Table types of the storage hub: folders, their permissions (grants) and files. */
import type { Timestamp } from "../db/column_types.ts";

export interface StorageFolderTable {
  id: string;
  parent_id: string | null;
  name: string;
  is_public: boolean;
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
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StorageTables {
  storage_folders: StorageFolderTable;
  storage_folder_permissions: StorageFolderPermissionTable;
  storage_files: StorageFileTable;
}
