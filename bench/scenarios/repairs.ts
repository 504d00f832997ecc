/**
 * Repairs (issue 17), on 100,000 tickets of 20,000 accounts seeded by SQL (both HTTP scenarios
 * share the rows: deterministic ids, ON CONFLICT DO NOTHING):
 *  - `GET /v1/repair-tickets?q=<a serial number>`: the ticket search (trigram indexes over
 *    number, item and serial, plus the account's name);
 *  - `GET /v1/repair-tickets/ready-for-pickup`: the first page of the 2,000 tickets on the
 *    pickup shelf, each with its balance due;
 *  both next to pgbench and the bare stack running the page statement (the endpoint adds one
 *  more: the tickets' payments, from the POS);
 *  - a timed scenario that counts the queries of completing a repair payment next to a sale's
 *    (details in bench/results/latest.json and on stdout).
 * Targets: p99 under 20 ms at the bench's concurrency (default 10 clients).
 */
import { sql } from "kysely";
import type { Actor } from "../../app/actor.ts";
import { createAccount } from "../../app/accounts/accounts.ts";
import type { AppDeps } from "../../app/deps.ts";
import { completeTransaction } from "../../app/pos/complete_transaction.ts";
import { openDrawer } from "../../app/pos/drawers.ts";
import { addPayment } from "../../app/pos/payments.ts";
import { createRegister } from "../../app/pos/registers.ts";
import { createTransaction } from "../../app/pos/transactions.ts";
import { addLineItem } from "../../app/repairs/line_items.ts";
import { createTicket } from "../../app/repairs/tickets.ts";
import { listTickets } from "../../app/repairs/tickets_repo.ts";
import { readyListQuery, ticketListQuery } from "../../app/repairs/ticket_schemas.ts";
import { PERMISSIONS } from "../../domain/auth/permissions.ts";
import { pgbenchFor } from "../_sql.ts";
import type { Scenario, SeedContext, TimedScenario } from "./_scenario.ts";

const TICKETS = 100_000;
const ACCOUNTS = 20_000;

/** The serial number of seeded ticket `j` (as the seed writes it). */
function serialOf(j: number): string {
  return `SN-${String((j * 7919) % 1_000_003).padStart(7, "0")}`;
}

const QUERY = Deno.env.get("BENCH_REPAIRS_QUERY") ?? serialOf(77_777).toLowerCase();
const search = await pgbenchFor((db) => listTickets(db, ticketListQuery.parse({ q: QUERY })));
const shelf = await pgbenchFor((db) =>
  listTickets(db, { ...readyListQuery.parse({}), status: "ready_for_pickup" })
);

/** 100,000 tickets (one in 50 ready for pickup, each with two lines) of 20,000 accounts. */
async function seedTickets({ db }: SeedContext): Promise<void> {
  await sql`
    INSERT INTO accounts (id, account_number, name, created_at, updated_at)
    SELECT md5('rba' || i)::uuid, 'RB-' || lpad(i::text, 6, '0'), 'Repair Household ' || i,
      now() - make_interval(secs => i), now()
    FROM generate_series(1, ${ACCOUNTS}) AS i
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO repair_tickets (id, ticket_number, account_id, status, item_description,
      serial_number, customer_total, status_changed_at, created_at, updated_at)
    SELECT md5('rbt' || j)::uuid, 'R-' || lpad(j::text, 6, '0'),
      md5('rba' || (j % ${ACCOUNTS} + 1))::uuid,
      CASE WHEN j % 50 = 0 THEN 'ready_for_pickup'
        ELSE (ARRAY['new','intake','in_progress','pending_parts','picked_up','picked_up',
                    'delivered','picked_up','picked_up','cancelled'])[j % 10 + 1] END,
      (ARRAY['Violin','Cello','Trumpet','Flute','Clarinet','Guitar','Saxophone','Trombone'])[j % 8 + 1]
        || ', ' || (ARRAY['cracked','buzzing','stuck valve','loose','bent','worn'])[j % 6 + 1],
      'SN-' || lpad(((j::bigint * 7919) % 1000003)::text, 7, '0'),
      65.00, now() - make_interval(mins => j), now() - make_interval(mins => j), now()
    FROM generate_series(1, ${TICKETS}) AS j
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO repair_line_items (id, ticket_id, kind, description, quantity, unit_price,
      created_at, updated_at)
    SELECT md5('rbl' || j || k)::uuid, md5('rbt' || j)::uuid,
      CASE k WHEN 1 THEN 'labor' ELSE 'part' END, CASE k WHEN 1 THEN 'Labor' ELSE 'Part' END,
      1, CASE k WHEN 1 THEN 45.00 ELSE 20.00 END, now(), now()
    FROM generate_series(1, ${TICKETS}) AS j, generate_series(1, 2) AS k
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`SELECT setval('repair_ticket_number_seq', ${TICKETS})`.execute(db);
}

export const repairsSearch: Scenario<{ token: string }> = {
  name: `GET /v1/repair-tickets?q=${QUERY} (100,000 tickets)`,
  async seed(ctx) {
    await seedTickets(ctx);
    return { token: (await ctx.createUser(["repairs.view"])).token };
  },
  request(_i, { token }) {
    return {
      path: `/v1/repair-tickets?q=${encodeURIComponent(QUERY)}`,
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  pgbenchScript: search.script,
  pgbenchDefines: search.defines,
  bareStatement: search.query,
  targets: { p99Ms: 20 },
};

export const repairsReadyForPickup: Scenario<{ token: string }> = {
  name: "GET /v1/repair-tickets/ready-for-pickup (2,000 of 100,000 tickets)",
  async seed(ctx) {
    await seedTickets(ctx);
    return { token: (await ctx.createUser(["repairs.view"])).token };
  },
  request(_i, { token }) {
    return {
      path: "/v1/repair-tickets/ready-for-pickup",
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  pgbenchScript: shelf.script,
  pgbenchDefines: shelf.defines,
  bareStatement: shelf.query,
  targets: { p99Ms: 20 },
};

interface PaymentState {
  actor: Actor;
  locationId: string;
}

/** Completes `transactionId` on a database that counts the statements it runs. */
async function countedComplete(deps: AppDeps, actor: Actor, transactionId: string) {
  const counter = { queries: 0 };
  const db = deps.db.withPlugin({
    transformQuery(args) {
      counter.queries++;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  });
  const started = performance.now();
  await completeTransaction({ ...deps, db }, actor, transactionId, undefined);
  return { queries: counter.queries, ms: performance.now() - started };
}

async function paid(deps: AppDeps, actor: Actor, tx: { id: string; total: string }) {
  await addPayment(deps, actor, tx.id, { method: "card", amount: tx.total });
  return tx.id;
}

export const repairsPaymentQueries: TimedScenario<PaymentState> = {
  kind: "timed",
  name: "repairs: queries of completing a repair payment vs a sale",
  async seed(ctx) {
    const deps = ctx.deps();
    const user = await ctx.createUser(PERMISSIONS.map((p) => p.id));
    const actor: Actor = {
      userId: user.id,
      email: "bench@example.test",
      kind: "access",
      permissions: new Set(PERMISSIONS.map((p) => p.id)),
    };
    const locationId = crypto.randomUUID();
    const now = new Date();
    await ctx.db.insertInto("locations")
      .values({ id: locationId, name: "Repair bench store", created_at: now, updated_at: now })
      .execute();
    const register = await createRegister(deps, { name: "Repair bench", locationId });
    await openDrawer(deps, actor, { registerId: register.id, openingBalance: "100.00" });
    return { actor, locationId };
  },
  async run(ctx, { actor, locationId }) {
    const deps = ctx.deps();
    const lines = [1, 2, 3].map((n) => ({
      description: `Line ${n}`,
      quantity: 1,
      unitPrice: "10.00",
    }));
    const sale = await createTransaction(deps, actor, { locationId, type: "sale", items: lines });
    const saleRun = await countedComplete(deps, actor, await paid(deps, actor, sale));
    const account = await createAccount(deps, { name: "Bench repair customer" });
    const ticket = await createTicket(deps, actor, {
      accountId: account.id,
      itemDescription: "Bench violin",
    });
    for (const line of lines) await addLineItem(deps, actor, ticket.id, { kind: "part", ...line });
    const payment = await createTransaction(deps, actor, {
      locationId,
      type: "repair_payment",
      repairTicketId: ticket.id,
    });
    const repairRun = await countedComplete(deps, actor, await paid(deps, actor, payment));
    const details = {
      saleQueries: saleRun.queries,
      repairPaymentQueries: repairRun.queries,
      saleMs: Number(saleRun.ms.toFixed(2)),
    };
    console.log(`  complete: sale ${saleRun.queries} queries, repair payment ${repairRun.queries}`);
    return { ms: repairRun.ms, details };
  },
};
