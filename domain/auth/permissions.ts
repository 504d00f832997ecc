/**
 * The fixed permission catalogue (42 identifiers in 13 domains) and the inheritance rules
 * of API §3. Pure: used by the seeds, the permission middleware and the role routes.
 */

export const PERMISSION_DOMAINS = {
  accounts: ["view", "edit", "approve", "admin"],
  users: ["view", "edit", "admin"],
  files: ["view", "upload", "delete"],
  inventory: ["view", "edit", "admin"],
  pos: ["view", "edit", "override", "admin"],
  repairs: ["view", "edit", "approve", "admin"],
  lessons: ["view", "teach", "edit", "admin"],
  rentals: ["view", "edit", "admin"],
  reports: ["view", "admin"],
  settings: ["view", "edit", "admin"],
  storage: ["view", "edit", "admin"],
  vault: ["view", "edit", "admin"],
  email: ["view", "edit", "admin"],
} as const;

type Domains = typeof PERMISSION_DOMAINS;
export type PermissionDomain = keyof Domains;
export type Permission = {
  [D in PermissionDomain]: `${D}.${Domains[D][number]}`;
}[PermissionDomain];

const ACTION_DESCRIPTIONS: Record<string, string> = {
  view: "See",
  edit: "Create and change",
  admin: "Administer (delete, configure) all of",
  approve: "Approve",
  override: "Approve manager overrides in",
  upload: "Upload",
  delete: "Delete",
  teach: "Teach and record progress in",
};

export interface PermissionInfo {
  id: Permission;
  domain: PermissionDomain;
  action: string;
  description: string;
}

export const PERMISSIONS: readonly PermissionInfo[] = Object.entries(PERMISSION_DOMAINS)
  .flatMap(([domain, actions]) =>
    actions.map((action) => ({
      id: `${domain}.${action}` as Permission,
      domain: domain as PermissionDomain,
      action,
      description: `${ACTION_DESCRIPTIONS[action] ?? action} ${domain}`,
    }))
  );

const PERMISSION_IDS: ReadonlySet<string> = new Set(PERMISSIONS.map((p) => p.id));

export function isPermission(value: string): value is Permission {
  return PERMISSION_IDS.has(value);
}

/** Permissions implied by one permission besides itself (one step; expansion iterates). */
function directlyImplied(permission: Permission): Permission[] {
  const [domain, action] = permission.split(".") as [PermissionDomain, string];
  const implied: Permission[] = [];
  if (action === "admin") {
    for (const other of PERMISSION_DOMAINS[domain]) {
      implied.push(`${domain}.${other}` as Permission);
    }
  }
  if (action !== "view") implied.push(`${domain}.view` as Permission);
  if (permission === "lessons.edit") implied.push("lessons.teach");
  if (permission === "files.delete") implied.push("files.upload");
  return implied;
}

/**
 * Expands granted permissions with everything they imply: `admin` implies its whole
 * domain, every permission implies its domain's `view`, `lessons.edit` implies
 * `lessons.teach`, `files.delete` implies `files.upload`. Unknown identifiers are dropped.
 */
export function expandPermissions(granted: Iterable<string>): Set<Permission> {
  const result = new Set<Permission>();
  const pending = [...granted].filter(isPermission);
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (result.has(next)) continue;
    result.add(next);
    pending.push(...directlyImplied(next));
  }
  return result;
}

export interface SystemRoleDefinition {
  slug: string;
  name: string;
  description: string;
  permissions: readonly Permission[];
}

export const SYSTEM_ROLES: readonly SystemRoleDefinition[] = [
  {
    slug: "admin",
    name: "Admin",
    description: "Full access to everything",
    permissions: PERMISSIONS.map((p) => p.id),
  },
  {
    slug: "manager",
    name: "Manager",
    description: "Runs the shop day to day",
    permissions: [
      "accounts.admin",
      "inventory.admin",
      "pos.admin",
      "repairs.admin",
      "lessons.admin",
      "rentals.admin",
      "reports.admin",
      "files.delete",
      "storage.edit",
      "vault.view",
      "users.view",
      "settings.view",
      "email.view",
    ],
  },
  {
    slug: "sales-associate",
    name: "Sales Associate",
    description: "Sells at the counter",
    permissions: [
      "accounts.edit",
      "inventory.view",
      "pos.edit",
      "repairs.view",
      "lessons.view",
      "rentals.edit",
      "files.upload",
      "storage.view",
    ],
  },
  {
    slug: "technician",
    name: "Technician",
    description: "Works the repair bench",
    permissions: [
      "repairs.edit",
      "inventory.view",
      "accounts.view",
      "files.upload",
      "storage.view",
    ],
  },
  {
    slug: "instructor",
    name: "Instructor",
    description: "Teaches lessons",
    permissions: ["lessons.teach", "accounts.view", "files.upload", "storage.view"],
  },
  {
    slug: "viewer",
    name: "Viewer",
    description: "Read-only access",
    permissions: [
      "accounts.view",
      "inventory.view",
      "pos.view",
      "repairs.view",
      "lessons.view",
      "rentals.view",
      "reports.view",
      "files.view",
      "storage.view",
      "settings.view",
    ],
  },
];

/** `Front Desk` → `front-desk`: lower case, runs of other characters become one dash. */
export function slugify(name: string): string {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
