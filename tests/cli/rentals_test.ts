/**
 * `ops rentals bill` on the database directly, as cron runs it (a child process on a
 * prepared data directory): a one-line summary, idempotent reruns, `--json`, and a malformed
 * `--through` as a usage error (exit 2) that changes nothing.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { embeddedRunTest, removeDir } from "../_helpers/processes.ts";
import { ops, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { createAccount } from "../../app/accounts/accounts.ts";
import { createAccountBody } from "../../app/accounts/account_schemas.ts";
import { createProductBody } from "../../app/inventory/inventory_schemas.ts";
import { createProduct } from "../../app/inventory/products.ts";
import { createUnit } from "../../app/inventory/units.ts";
import { createRental } from "../../app/rentals/rentals.ts";

let place: OpsPlace;

function chargeCount(): Promise<number> {
  return withDataDir(place.dataDir, async ({ db }) => {
    const rows = await db.selectFrom("rental_charges").select("id").execute();
    return rows.length;
  });
}

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
});
embeddedRunTest.afterAll(async () => {
  await removeDir(place.dataDir);
});

embeddedRunTest(
  "ops rentals bill: nothing to bill says why; bills once; reruns skip; --json; bad dates exit 2",
  async () => {
    const nothing = await ops(place, ["rentals", "bill", "--through", "2026-03-31"]);
    assertEquals(nothing.code, 0, nothing.stderr);
    assertStringIncludes(nothing.stdout, "Nothing to bill through 2026-03-31: no active rental");

    await withDataDir(place.dataDir, async (deps) => {
      const account = await createAccount(deps, createAccountBody.parse({ name: "Rental Family" }));
      const product = await createProduct(
        deps,
        SYSTEM_ACTOR,
        createProductBody.parse({
          name: "Student Clarinet",
          sku: "CL-1",
          price: "450.00",
          type: "rental",
        }),
      );
      for (const [i, interval] of (["monthly", "weekly"] as const).entries()) {
        const unit = await createUnit(deps, product.id, {
          serialNumber: `CL-${i}`,
          status: "in_stock",
          condition: "new",
        });
        await createRental(deps, SYSTEM_ACTOR, {
          accountId: account.id,
          productId: product.id,
          unitId: unit.id,
          startDate: "2026-01-05",
          billingInterval: interval,
          rate: "25.00",
        });
      }
    });

    const first = await ops(place, ["rentals", "bill", "--through", "2026-03-31"]);
    assertEquals(first.code, 0, first.stderr);
    // Monthly: Jan 5, Feb 5, Mar 5; weekly: 13 Mondays from Jan 5 to Mar 30.
    assertEquals(
      first.stdout.trim(),
      "Rental charges through 2026-03-31: created 16, skipped 0 already billed, 2 active rentals.",
    );
    assertEquals(first.stderr, "");
    const again = await ops(place, ["rentals", "bill", "--through", "2026-03-31", "--json"]);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(JSON.parse(again.stdout), {
      created: 0,
      skipped: 16,
      rentals: 2,
      through: "2026-03-31",
    });
    assertEquals(await chargeCount(), 16);

    for (const bad of ["2026-13-01", "tomorrow", "9999-12-31"]) {
      const res = await ops(place, ["rentals", "bill", "--through", bad]);
      assertEquals(res.code, 2, `${bad}: ${res.stderr}`);
      assertMatch(res.stderr.trim(), /^error: --through: /);
      assertEquals(res.stderr.trim().split("\n").length, 1);
    }
    assertEquals(await chargeCount(), 16);
  },
);
