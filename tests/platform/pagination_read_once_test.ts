/**
 * A search (or a list marked `readMatchesOnce`) reads its matches once: the first cap + 1 ids
 * and sort keys are kept, counted and sorted for the page; past the cap the page is read along
 * the sort instead (app/db/pagination.ts). Both ways must give the very page and total that
 * counting and paging along the sort give: every sort, both directions, NULLs last, ties
 * broken by id, pages past the end, and a search past the cap.
 */
import { sql } from "kysely";
import { assertEquals } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { EXACT_TOTAL_CAP, paginate } from "../../app/db/pagination.ts";
import { listQuery } from "../../app/schemas.ts";

let t: TestApp;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  // 40 products with repeated names and prices, a third without a cost; and more "Bulk" ones
  // than the cap.
  await sql`INSERT INTO products (id, name, sku, type, price, cost, created_at, updated_at)
    SELECT gen_random_uuid(), (ARRAY['Alto', 'Bass', 'Cello'])[g % 3 + 1] || ' case',
      'RO-' || g, 'standard', (g % 5) + 10, CASE WHEN g % 3 = 0 THEN NULL ELSE g % 7 END,
      now(), now()
    FROM generate_series(1, 40) AS g`.execute(t.deps.db);
  await sql`INSERT INTO products (id, name, sku, type, price, created_at, updated_at)
    SELECT gen_random_uuid(), 'Bulk ' || g, 'BULK-' || g, 'standard', 1, now(), now()
    FROM generate_series(1, ${EXACT_TOTAL_CAP + 50}) AS g`.execute(t.deps.db);
  await sql`ANALYZE products`.execute(t.deps.db);
});
Deno.test.afterAll(async () => {
  await t.close();
});

const schema = listQuery({ sort: ["name", "price", "cost"], defaultSort: "name" });
const sortColumns = { name: "products.name", price: "products.price", cost: "products.cost" };

function page(raw: Record<string, string>, readMatchesOnce: boolean, where = "case") {
  const params = schema.parse(raw);
  const query = t.deps.db.selectFrom("products").select(["products.id", "products.name"])
    .where("products.deleted_at", "is", null)
    .where("products.name", "ilike", `%${where}%`);
  return paginate(query, params, {
    sortColumns,
    nullableSorts: ["cost"],
    tieBreaker: "products.id",
    readMatchesOnce,
    map: (row) => row.id,
  });
}

Deno.test("read once, every sort, direction and page answers what paging along the sort does", async () => {
  for (const sort of ["name", "price", "cost"]) {
    for (const order of ["asc", "desc"]) {
      for (const pageNumber of ["1", "2", "6", "7"]) {
        const raw = { sort, order, page: pageNumber, limit: "7" };
        const alongSort = await page(raw, false);
        assertEquals(await page(raw, true), alongSort, JSON.stringify(raw));
      }
    }
  }
  // The cost sort puts products without a cost last both ways, ties in id order.
  const byCost = await page({ sort: "cost", order: "desc", limit: "40" }, true);
  const nulls = await t.deps.db.selectFrom("products").select("id")
    .where("cost", "is", null).where("name", "ilike", "%case%").orderBy("id", "desc").execute();
  assertEquals(byCost.data.slice(-nulls.length), nulls.map((row) => row.id));
});

Deno.test("a search past the cap pages along the sort and says its total is an estimate", async () => {
  const found = await page({ q: "bulk", sort: "name", page: "2", limit: "25" }, true, "bulk");
  const expected = await t.deps.db.selectFrom("products").select("id")
    .where("name", "ilike", "%bulk%").orderBy("name").orderBy("id").limit(25).offset(25)
    .execute();
  assertEquals(found.data, expected.map((row) => row.id));
  assertEquals(found.pagination.totalExact, false);
  assertEquals(found.pagination.total >= EXACT_TOTAL_CAP + 1, true);
});

Deno.test("a page past the matches kept (the cap + 1) is read along the sort", async () => {
  // Another term than the test above ("ulk" finds the same products), so this list is not
  // remembered as large yet and its first read keeps the matches.
  const last = Math.ceil((EXACT_TOTAL_CAP + 50) / 25);
  const found = await page(
    { q: "ulk", sort: "name", page: String(last), limit: "25" },
    true,
    "ulk",
  );
  const expected = await t.deps.db.selectFrom("products").select("id")
    .where("name", "ilike", "%ulk%").orderBy("name").orderBy("id").limit(25)
    .offset((last - 1) * 25).execute();
  assertEquals(found.data.length, (EXACT_TOTAL_CAP + 50) % 25 || 25);
  assertEquals(found.data, expected.map((row) => row.id));
  assertEquals(found.pagination.totalExact, false);
});

Deno.test("a list sorted on a column of its own select list pages along the sort", async () => {
  // `double_price` exists only in the list's select list, not in the table the matches read.
  const params = schema.parse({ q: "case", sort: "name", limit: "5", page: "2" });
  const query = t.deps.db.selectFrom("products")
    .select(["products.id", sql<number>`products.price * 2`.as("double_price")])
    .where("products.name", "ilike", "%case%");
  const found = await paginate(query, params, {
    sortColumns: { name: "double_price" },
    tieBreaker: "products.id",
    map: (row) => row.id,
  });
  const expected = await query.orderBy("double_price").orderBy("products.id").limit(5).offset(5)
    .execute();
  assertEquals(found.data, expected.map((row) => row.id));
  assertEquals(found.pagination.total, 40);
});
