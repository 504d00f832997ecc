/** `GET /v1/locations` over 1,000 locations, 25 per page, sorted by name. */
import type { Scenario } from "./_scenario.ts";

const LOCATIONS = 1000;
const PAGES = LOCATIONS / 25;

export const locationsList: Scenario<{ token: string }> = {
  name: "GET /v1/locations (1,000 rows, page of 25)",
  async seed({ db, createUser }) {
    const now = new Date();
    const rows = Array.from({ length: LOCATIONS }, (_, i) => ({
      id: crypto.randomUUID(),
      name: `Location ${String(i).padStart(4, "0")}`,
      phone: `+1 555 ${String(i).padStart(4, "0")}`,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db.insertInto("locations").values(rows.slice(i, i + 500)).execute();
    }
    const { token } = await createUser(["settings.view"]);
    return { token };
  },
  request(i, { token }) {
    return {
      path: `/v1/locations?page=${(i % PAGES) + 1}&limit=25&sort=name`,
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  // The list + count query the route runs (the request also loads the caller's permissions).
  pgbenchScript: `\\set page random(0, ${PAGES - 1})
SELECT id, name, address, phone, is_active, created_at, updated_at, count(*) OVER () AS total
FROM locations ORDER BY name ASC NULLS LAST, id ASC LIMIT 25 OFFSET :page * 25;
`,
};
