/** Table types of identity and access: users, roles and their permissions. */
import type { Generated } from "kysely";
import type { Timestamp } from "../platform/platform_tables.ts";

export interface UserTable {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  employee_number: string;
  is_active: Generated<boolean>;
  pin_hash: string | null;
  /** Bumped on password change/reset and disable: every older token stops working. */
  token_version: Generated<number>;
  /** Bumped when the PIN is set or removed: older `pos` tokens stop working. */
  pos_token_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RoleTable {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  is_system: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolePermissionTable {
  role_id: string;
  permission: string;
}

export interface UserRoleTable {
  user_id: string;
  role_id: string;
  created_at: Timestamp;
}

export interface AuthTables {
  users: UserTable;
  roles: RoleTable;
  role_permissions: RolePermissionTable;
  user_roles: UserRoleTable;
}
