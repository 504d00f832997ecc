import { assert, assertEquals } from "../_helpers/assert.ts";
import { createTestApp, type TestApp } from "../_helpers/test_app.ts";
import { newShapeMemo, paginate, paginateByShape } from "../../app/db/pagination.ts";
import {
  listProducts,
  PRODUCT_SORT_COLUMNS,
  productListQuery,
  productListSql,
} from "../../app/inventory/products_repo.ts";
import { productListQuery as productListSchema } from "../../app/inventory/inventory_schemas.ts";
import { listAccounts } from "../../app/accounts/accounts_repo.ts";
import { accountListQuery as accountListSchema } from "../../app/accounts/account_schemas.ts";
import { listTickets, ticketListSql } from "../../app/repairs/tickets_repo.ts";
import { ticketListQuery as ticketListSchema } from "../../app/repairs/ticket_schemas.ts";
import { listRentals, rentalListSql } from "../../app/rentals/rentals_repo.ts";
import { rentalListQuery as rentalListSchema } from "../../app/rentals/rental_schemas.ts";

let t: TestApp;

Deno.test.beforeAll(async () => {
  t = await createTestApp();
  const now = new Date("2026-01-01T00:00:00Z");
  const categoryId = crypto.randomUUID();
  await t.deps.db.insertInto("categories").values({
    id: categoryId,
    name: "Strings",
    created_at: now,
    updated_at: now,
  } as never).execute();
  await t.deps.db.insertInto("products").values(
    Array.from({ length: 30 }, (_, i) => ({
      id: crypto.randomUUID(),
      name: `${i % 2 ? "Vintage" : "Modern"} bass ${String(i).padStart(2, "0")}`,
      sku: `SHAPE-${i}`,
      type: i % 3 === 0 ? "consumable" : "standard",
      is_consumable: i % 3 === 0,
      is_active: i % 4 !== 0,
      category_id: i % 5 === 0 ? categoryId : null,
      price: `${10 + i}.00`,
      qty_on_hand: i % 7,
      reorder_point: 3,
      created_at: new Date(now.getTime() + i * 1000),
      updated_at: now,
    })) as never,
  ).execute();
  await t.deps.db.insertInto("accounts").values(
    Array.from({ length: 12 }, (_, i) => ({
      id: crypto.randomUUID(),
      account_number: `A-SHAPE-${i}`,
      name: `${i % 2 ? "Carter" : "Smith"} household ${i}`,
      created_at: now,
      updated_at: now,
    })) as never,
  ).execute();
  // The category filter of the shapes below needs the id.
  queries.push({ categoryId }, { q: "bass", categoryId, sort: "price", order: "desc" });
});
Deno.test.afterAll(async () => {
  await t.close();
});

const queries: Record<string, string>[] = [
  {},
  { q: "vintage" },
  { q: "BASS", sort: "price", order: "desc", limit: "7", page: "2" },
  { q: "bass", page: "9" },
  { type: "standard", isActive: "true" },
  { lowStock: "true" },
  { lowStock: "false", q: "modern" },
  { pos: "true" },
  { pos: "true", isActive: "false", sort: "createdAt" },
  { q: "50%_x" },
];

Deno.test("the product list answers the same from remembered SQL as from the query builder", async () => {
  const remembered = productListSql.size;
  for (const raw of queries) {
    const params = productListSchema.parse(raw);
    const expected = await paginate(productListQuery(t.deps.db, params), params, {
      sortColumns: PRODUCT_SORT_COLUMNS,
      tieBreaker: "products.id",
      map: (row) => row.id,
    });
    const first = await listProducts(t.deps.db, params);
    const second = await listProducts(t.deps.db, params);
    assertEquals(second, first, JSON.stringify(raw));
    assertEquals(first.data.map((p) => p.id), expected.data, JSON.stringify(raw));
    assertEquals(first.pagination, expected.pagination, JSON.stringify(raw));
  }
  // Every shape's SQL was remembered (its values list matched the query's parameters).
  assert(productListSql.size - remembered >= 9, String(productListSql.size - remembered));
});

Deno.test("the account list answers the same from remembered SQL, with and without a search", async () => {
  for (const raw of [{}, { q: "carter" }, { q: "carter", page: "3", limit: "2" }, { q: "none" }]) {
    const params = accountListSchema.parse(raw);
    const first = await listAccounts(t.deps.db, params);
    const second = await listAccounts(t.deps.db, params);
    assertEquals(second, first, JSON.stringify(raw));
  }
  const carters = await listAccounts(t.deps.db, accountListSchema.parse({ q: "carter" }));
  assertEquals(carters.pagination.total, 6);
  assert(carters.data.every((a) => a.name.startsWith("Carter")));
  const pastEnd = await listAccounts(
    t.deps.db,
    accountListSchema.parse({ q: "carter", page: "5" }),
  );
  assertEquals(pastEnd.data, []);
  assertEquals(pastEnd.pagination.total, 6);
});

Deno.test("paginateByShape remembers the SQL only when the values list matches the query", async () => {
  const params = productListSchema.parse({ q: "vintage", limit: "5" });
  const build = () => productListQuery(t.deps.db, params);
  const options = {
    sortColumns: PRODUCT_SORT_COLUMNS,
    tieBreaker: "products.id",
    map: (row: { id: string }) => row.id,
  };
  const expected = await paginate(build(), params, options);

  const right = newShapeMemo();
  const first = await paginateByShape(t.deps.db, right, "q", ["%vintage%"], build, params, options);
  assertEquals(right.size, 1);
  const again = await paginateByShape(t.deps.db, right, "q", ["%vintage%"], build, params, options);
  assertEquals([first, again], [expected, expected]);

  const wrong = newShapeMemo();
  const fallback = await paginateByShape(
    t.deps.db,
    wrong,
    "q",
    ["%modern%"],
    build,
    params,
    options,
  );
  assertEquals(wrong.size, 0);
  assertEquals(fallback, expected);
});

Deno.test("the ticket and rental lists remember the SQL of every shape (their values lists match)", async () => {
  const db = t.deps.db;
  const id = crypto.randomUUID();
  const ticketQueries: Parameters<typeof listTickets>[1][] = [
    ticketListSchema.parse({}),
    ticketListSchema.parse({ q: "violin", sort: "ticketNumber", order: "asc" }),
    { ...ticketListSchema.parse({}), status: "ready_for_pickup" },
    // The shelf's search (its status written into the text, its q matched ticket by ticket).
    { ...ticketListSchema.parse({ q: "Violin" }), status: "ready_for_pickup" },
    { ...ticketListSchema.parse({ accountId: id, batchId: id }), locationId: id },
    { ...ticketListSchema.parse({ q: "x", serialNumber: "SN-1" }), status: "new" },
  ];
  const tickets = ticketListSql.size;
  for (const params of ticketQueries) {
    const first = await listTickets(db, params);
    assertEquals(await listTickets(db, params), first);
  }
  assertEquals(ticketListSql.size - tickets, ticketQueries.length);
  const rentalQueries: Parameters<typeof listRentals>[1][] = [
    rentalListSchema.parse({}),
    rentalListSchema.parse({ q: "smith", sort: "dueDate", order: "desc" }),
    { ...rentalListSchema.parse({ status: "active" }), overdueBefore: "2026-11-28" },
    { ...rentalListSchema.parse({}), pastDueBefore: "2026-11-18" },
    // Read once, the page size is in the text: one statement per size, still remembered.
    { ...rentalListSchema.parse({ limit: "7", page: "2" }), pastDueBefore: "2026-11-18" },
    { ...rentalListSchema.parse({ accountId: id, memberId: id, productId: id }) },
  ];
  const rentals = rentalListSql.size;
  for (const params of rentalQueries) {
    const first = await listRentals(db, params);
    assertEquals(await listRentals(db, params), first);
  }
  assertEquals(rentalListSql.size - rentals, rentalQueries.length);
});
