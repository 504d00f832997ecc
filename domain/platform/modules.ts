/**
 * The feature modules (API §4) and which routes belong to which module. The module gate (the
 * route guard in `server/route.ts`) only asks `moduleForPath()`; a new feature registers its
 * path prefix here and nowhere else.
 */

export interface ModuleDefinition {
  slug: string;
  name: string;
  description: string;
  core: boolean;
}

export const MODULES: readonly ModuleDefinition[] = [
  { slug: "accounts", name: "Accounts", description: "Customer accounts", core: true },
  { slug: "members", name: "Members", description: "People on accounts", core: true },
  { slug: "users", name: "Users", description: "Staff users", core: true },
  { slug: "roles", name: "Roles", description: "Roles and permissions", core: true },
  { slug: "settings", name: "Settings", description: "Store settings and locations", core: true },
  {
    slug: "inventory",
    name: "Inventory",
    description: "Products, stock and suppliers",
    core: false,
  },
  { slug: "pos", name: "Point of sale", description: "Registers, drawers and sales", core: false },
  { slug: "repairs", name: "Repairs", description: "Repair tickets and batches", core: false },
  { slug: "rentals", name: "Rentals", description: "Instrument rentals", core: false },
  { slug: "lessons", name: "Lessons", description: "Lesson scheduling and plans", core: false },
  { slug: "files", name: "Files", description: "Files and the shared document hub", core: false },
  { slug: "vault", name: "Vault", description: "Encrypted secrets", core: false },
  { slug: "email", name: "Email", description: "Outgoing email", core: false },
  { slug: "reports", name: "Reports", description: "Business reports", core: false },
];

/**
 * Path prefixes (below `/v1`) → optional module. A prefix matches the path itself and
 * anything below it or continuing it (`/repair-` matches `/repair-tickets/1`). The most
 * specific prefix wins, so `/reports/daily` (pos) beats `/reports/` (reports).
 */
const MODULE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ["/products", "inventory"],
  ["/categories", "inventory"],
  ["/suppliers", "inventory"],
  ["/lookups/unit-statuses", "inventory"],
  ["/lookups/item-conditions", "inventory"],
  ["/units", "inventory"],
  ["/stock-receipts", "inventory"],
  ["/product-suppliers", "inventory"],
  ["/registers", "pos"],
  ["/drawers", "pos"],
  ["/transactions", "pos"],
  ["/reports/daily", "pos"],
  ["/repair-", "repairs"],
  ["/service-templates", "repairs"],
  ["/rentals", "rentals"],
  ["/lesson-", "lessons"],
  ["/instructors", "lessons"],
  ["/schedule-slots", "lessons"],
  ["/enrollments", "lessons"],
  ["/grading-scales", "lessons"],
  ["/store-closures", "lessons"],
  ["/files", "files"],
  ["/storage/", "files"],
  ["/vault/", "vault"],
  ["/email/", "email"],
  ["/reports/", "reports"],
];

const BY_SPECIFICITY = [...MODULE_PREFIXES].sort((a, b) => b[0].length - a[0].length);

/** The optional module owning `path` (relative to `/v1`), or undefined for core routes. */
export function moduleForPath(path: string): string | undefined {
  for (const [prefix, slug] of BY_SPECIFICITY) {
    if (path.startsWith(prefix)) return slug;
  }
  return undefined;
}
