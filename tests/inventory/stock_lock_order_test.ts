/**
 * Parallel sales and stock receipts of the same products never deadlock (issue 15 item 8),
 * on real PostgreSQL: the stock update takes each product's row lock once, in id order, in
 * the UPDATE itself (app/inventory/stock_repo.ts `stockDeltaCte`). It used to lock the rows
 * with a `SELECT ... FOR NO KEY UPDATE` and update them in the same statement, whose second
 * walk over a row's versions deadlocked with a transaction queued behind it (about 1 in 500
 * sales here). The server now retries a deadlock itself (`withTransaction`), which would hide
 * one from the responses, so the test counts them where PostgreSQL does: the database's
 * `pg_stat_database.deadlocks`, read once the app's connections have ended.
 */
import postgres from "postgres";
import { assertEquals } from "../_helpers/assert.ts";
import { openDatabase } from "../../app/db/connect.ts";
import { createDeps } from "../../app/create_deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";
import { createApp } from "../../server/app.ts";
import { createTestDatabase, testServerUrl } from "../_helpers/test_db.ts";
import { api, type TestApp, testConfig } from "../_helpers/test_app.ts";
import { makeProduct, posUsers, stockOf, storeWithDrawer } from "../pos/_fixtures.ts";

const SELLERS = 6;
const SALES_EACH = 20;
const RECEIVERS = 2;
const RECEIPTS_EACH = 25;

Deno.test({
  name: "parallel sales and stock receipts of the same products cause no deadlock",
  ignore: !testServerUrl(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const database = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: database.url!, poolSize: 10 });
    let handleOpen = true;
    try {
      const deps = createDeps({
        config: testConfig(),
        db: handle.db,
        dbKind: "postgres",
        logger: createMemoryLogger(),
      });
      const t = { app: createApp(deps), deps } as TestApp;
      const u = await posUsers(t);
      const { locationId } = await storeWithDrawer(t, u);
      const first = await makeProduct(t, u);
      const second = await makeProduct(t, u);
      const supplier = await api(t.app, "POST", "/v1/suppliers", {
        token: u.inventory.token,
        body: { name: "Acme" },
      });
      assertEquals(supplier.status, 201, supplier.text);

      const failures: string[] = [];
      const expect = (what: string, res: { status: number; text: string }, status: number) => {
        if (res.status !== status) failures.push(`${what}: ${res.status} ${res.text}`);
        return res.status === status;
      };
      const sold = new Map<string, number>([[first.id, 0], [second.id, 0]]);
      const received = new Map<string, number>([[first.id, 0], [second.id, 0]]);

      // A terminal: create, pay, complete; one product or both (listed in either order).
      const seller = async (n: number) => {
        for (let i = 0; i < SALES_EACH; i++) {
          const both = (n + i) % 2 === 0;
          const lines = both
            ? (i % 4 === 0 ? [second, first] : [first, second])
            : [i % 3 === 0 ? second : first];
          const created = await api(t.app, "POST", "/v1/transactions", {
            token: u.cashier.token,
            body: {
              locationId,
              type: "sale",
              items: lines.map((p) => ({ productId: p.id, quantity: 1 })),
            },
          });
          if (!expect("create", created, 201)) continue;
          const paid = await api(t.app, "POST", `/v1/transactions/${created.body.id}/payments`, {
            token: u.cashier.token,
            body: { method: "card", amount: created.body.balanceDue },
          });
          if (!expect("pay", paid, 201)) continue;
          const done = await api(t.app, "POST", `/v1/transactions/${created.body.id}/complete`, {
            token: u.cashier.token,
            body: {},
          });
          if (!expect("complete", done, 200)) continue;
          for (const p of lines) sold.set(p.id, sold.get(p.id)! + 1);
        }
      };
      const receiver = async (n: number) => {
        for (let i = 0; i < RECEIPTS_EACH; i++) {
          const product = (n + i) % 2 === 0 ? first : second;
          const res = await api(t.app, "POST", "/v1/stock-receipts", {
            token: u.inventory.token,
            body: {
              productId: product.id,
              supplierId: supplier.body.id,
              quantity: 2,
              costPerUnit: "1.00",
            },
          });
          if (expect("receipt", res, 201)) received.set(product.id, received.get(product.id)! + 2);
        }
      };
      await Promise.all([
        ...Array.from({ length: SELLERS }, (_, n) => seller(n)),
        ...Array.from({ length: RECEIVERS }, (_, n) => receiver(n)),
      ]);
      assertEquals(failures, []);
      for (const product of [first, second]) {
        assertEquals(
          await stockOf(t, product.id),
          received.get(product.id)! - sold.get(product.id)!,
          "no increment or decrement lost",
        );
      }

      // A backend reports its deadlocks to the statistics by the time it exits. (Nothing else
      // is connected to this test's database: its own pool was never used.)
      await handle.close();
      handleOpen = false;
      const name = new URL(database.url!).pathname.slice(1);
      const admin = postgres(testServerUrl()!, { max: 1, onnotice: () => {} });
      try {
        const stats = () =>
          admin<{ backends: number; deadlocks: number }[]>`
            SELECT numbackends AS backends, deadlocks::int AS deadlocks
            FROM pg_stat_database WHERE datname = ${name}`;
        for (let i = 0; i < 40 && (await stats())[0]!.backends > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assertEquals((await stats())[0]!.deadlocks, 0, "deadlocks detected by PostgreSQL");
      } finally {
        await admin.end();
      }
    } finally {
      if (handleOpen) await handle.close();
      await database.close();
    }
  },
});
