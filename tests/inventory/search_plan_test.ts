/**
 * Product search uses its trigram index (PostgreSQL only): on 30,000 products the list
 * query with `q` (alone and with the point-of-sale filter) is planned with
 * products_search_trgm_idx and without a sequential scan.
 */
import { listProducts } from "../../app/inventory/products_repo.ts";
import { productListQuery } from "../../app/inventory/inventory_schemas.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { keptPlanOf, onPostgres, withPlanDatabase } from "../_helpers/query_plans.ts";
import { sql } from "../_helpers/test_db.ts";

const plans = withPlanDatabase(async (t) => {
  await sql`
    INSERT INTO products (id, name, sku, type, is_consumable, price, created_at, updated_at)
    SELECT gen_random_uuid(), initcap(substr(md5('p' || i), 1, 10)) || ' ' || (i % 97),
      'PLAN-' || lpad(i::text, 6, '0'),
      (ARRAY['standard','serialized','rental','consumable'])[i % 4 + 1], i % 4 = 3,
      (i % 500) + 1, now(), now()
    FROM generate_series(1, 30000) AS i`.execute(t.deps.db);
  await sql`ANALYZE products`.execute(t.deps.db);
});

Deno.test({
  name: "product search on 30,000 products uses the trigram index, not a scan",
  ignore: !onPostgres,
  async fn() {
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM products WHERE sku = 'PLAN-012345'`.execute(plans.app.deps.db);
    const name = rows[0]!.name;
    const word = name.split(" ")[0]!;
    // A search is planned once per session and kept (PageOptions.planOnce): these are the
    // kept generic plans, for one word, several, and with other filters.
    const searches = [{ q: word }, { q: word, pos: "true" }, { q: name }, {
      q: name,
      type: "standard",
      sort: "price",
    }];
    for (const filters of searches) {
      const plan = await keptPlanOf(plans.traced, async () => {
        const page = await listProducts(plans.traced.db, productListQuery.parse(filters));
        assert(
          filters.type !== undefined || page.data.some((p) => p.sku === "PLAN-012345"),
          JSON.stringify(filters),
        );
      });
      assert(/products_search_trgm_idx/.test(plan), plan);
      assertEquals(/Seq Scan/.test(plan), false, plan);
    }
  },
});
