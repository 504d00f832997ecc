/** Table types of identity and access: users, roles and their permissions. */
import type { Generated } from "kysely";
import type { Timestamp } from "../db/column_types.ts";

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

/** Only the SHA-256 hash of a reset token is stored; `used_at` makes it single-use. */
export interface PasswordResetTokenTable {
  id: string;
  user_id: string;
  token_hash: string;
  purpose: "email" | "admin";
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** Fixed-window request counters (`bucket` = "ip:1.2.3.4", "forgot:a@b.c"). */
export interface RateLimitCounterTable {
  bucket: string;
  window_start: Timestamp;
  hits: Generated<number>;
}

/**
 * Wrong-PIN counters; `counter_key` is `user:<id>` for a number a user holds (kept across
 * renumbering), `number:<employee number>` for one nobody holds (domain/auth/pin.ts).
 */
export interface PinLoginFailureTable {
  counter_key: string;
  failures: Generated<number>;
  first_failure_at: Timestamp;
  locked_until: Timestamp | null;
}

export interface AuthTables {
  users: UserTable;
  roles: RoleTable;
  role_permissions: RolePermissionTable;
  user_roles: UserRoleTable;
  password_reset_tokens: PasswordResetTokenTable;
  rate_limit_counters: RateLimitCounterTable;
  pin_login_failures: PinLoginFailureTable;
}
