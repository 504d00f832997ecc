/**
 * The counts' join pruning (app/db/unused_joins.ts): a LEFT JOIN on the joined table's id that
 * nothing else names goes; any other join stays, so a count never changes.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from "kysely";
import { assertEquals } from "../_helpers/assert.ts";
import { withoutUnusedLeftJoins } from "../../app/db/unused_joins.ts";

// deno-lint-ignore no-explicit-any
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** The tables `query` still joins once pruned. */
// deno-lint-ignore no-explicit-any
function joinedAfterPruning(query: any): string[] {
  const text = withoutUnusedLeftJoins(query).compile().sql;
  return Array.from(text.matchAll(/join "(\w+)" as "(\w+)"/g), (m) => m[2]!);
}

const receipts = () =>
  db.selectFrom("stock_receipts as r")
    .leftJoin("products as p", "p.id", "r.product_id")
    .leftJoin("suppliers as s", "s.id", "r.supplier_id")
    .select(sql`1`.as("one"));

/** Rentals joined to their member, and through the member to its account. */
const rentalsWithAccount = () =>
  db.selectFrom("rentals as r")
    .leftJoin("members as m", "m.id", "r.member_id")
    .leftJoin("accounts as a", "a.id", "m.account_id")
    .select(sql`1`.as("one"));

Deno.test("left joins on the joined table's id that nothing names go", () => {
  assertEquals(joinedAfterPruning(receipts().where("r.product_id", "=", "x")), []);
});

Deno.test("a join the filter, another join or raw SQL names stays", () => {
  assertEquals(joinedAfterPruning(receipts().where("p.name", "=", "x")), ["p"]);
  assertEquals(joinedAfterPruning(receipts().where(sql<boolean>`lower(s.name) = 'x'`)), ["s"]);
  assertEquals(
    joinedAfterPruning(rentalsWithAccount().where("a.name", "=", "x")),
    ["m", "a"],
    "m stays: the join that is filtered on reads it",
  );
});

Deno.test("joins that may change the rows stay: inner, and left joins not on the id", () => {
  assertEquals(
    joinedAfterPruning(
      db.selectFrom("stock_receipts as r").innerJoin("products as p", "p.id", "r.product_id")
        .select(sql`1`.as("one")),
    ),
    ["p"],
  );
  assertEquals(
    joinedAfterPruning(
      db.selectFrom("rentals as r").leftJoin("rental_charges as c", "c.rental_id", "r.id")
        .select(sql`1`.as("one")),
    ),
    ["c"],
  );
});

Deno.test("a chain of unused joins goes whole", () => {
  assertEquals(joinedAfterPruning(rentalsWithAccount().where("r.status", "=", "active")), []);
});
