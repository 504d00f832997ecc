/**
 * `deno bench`: hot pure functions of the request path. Add yours below, or in a
 * `<area>_bench.ts` beside it imported here (so `deno task bench` runs it).
 */
import "./pos_bench.ts";
import { expandPermissions, PERMISSIONS } from "../domain/auth/permissions.ts";
import { likePattern } from "../app/schemas.ts";

const adminGrants = PERMISSIONS.map((p) => p.id);
const fewGrants = ["accounts.view", "inventory.edit", "pos.sell"];

Deno.bench(
  "expandPermissions() of the admin role (every permission)",
  { group: "permissions" },
  () => {
    expandPermissions(adminGrants);
  },
);

Deno.bench("expandPermissions() of three grants", { group: "permissions" }, () => {
  expandPermissions(fewGrants);
});

Deno.bench("likePattern() escapes a search term", () => {
  likePattern("50% off_sale\\items");
});
