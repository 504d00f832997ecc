// deno-lint-ignore-file no-explicit-any
/**
 * Property (issue 42, item 1): over random sequences of lines added, changed and removed and
 * order discounts set by a Sales Associate (pos.edit, no pos.override), sometimes with a
 * manager's override code, no sale ever completes with a discount share above
 * `discountApprovalThresholdPercent` unless a `pos.discount_override` audit entry approved a
 * share at least as large. The share is computed here on its own, exactly (BigInt): the lines'
 * reductions below their catalogue prices plus the order discount (a percentage of the
 * subtotal, or an amount capped at it), over the subtotal at catalogue prices.
 *
 * Along the way: a refused change (403 `manager_override_required`) changes nothing, a change
 * carrying a valid code is never refused for want of one, and nothing answers 5xx.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import {
  makeProduct,
  MANAGER_PIN,
  posSuite,
  type PosUsers,
  salesAssociate,
  storeWithDrawer,
} from "./_fixtures.ts";

let t: TestApp;
let u: PosUsers;
let associate: TestUser;
let locationId: string;
/** Catalogue prices in cents, by product id. */
const catalogue = new Map<string, bigint>();
let productIds: string[] = [];

const THRESHOLD_BP = 1_000n; // the default 10.00 %

posSuite(async (s) => {
  ({ t, u } = s);
  associate = await salesAssociate(t);
  ({ locationId } = await storeWithDrawer(t, u));
  for (const [name, price] of [["Guitar", 10_000], ["Amplifier", 90_000], ["Strings", 2_500]]) {
    const product = await makeProduct(t, u, { name, price: cents(BigInt(price!)) });
    catalogue.set(product.id, BigInt(price!));
  }
  productIds = [...catalogue.keys()];
});

function cents(value: bigint): string {
  return `${value / 100n}.${String(value % 100n).padStart(2, "0")}`;
}

function toCents(money: string): bigint {
  const [whole, fraction = "00"] = money.split(".");
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0"));
}

/** Percent of the catalogue price a line is sold at. */
const PRICE_PERCENTS = [100n, 100n, 95n, 90n, 80n, 50n];

function priceOf(productId: string, percent: bigint): string {
  return cents((catalogue.get(productId)! * percent) / 100n);
}

type Op =
  | { op: "add"; product: number; quantity: number; percent: number; code: boolean }
  | { op: "change"; line: number; quantity?: number; percent?: number; code: boolean }
  | { op: "remove"; line: number; code: boolean }
  | { op: "discount"; kind: "amount" | "percent"; value: string; code: boolean };

const withCode = fc.nat(2).map((n) => n === 0); // one request in three carries a code
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("add" as const),
    product: fc.nat(2),
    quantity: fc.integer({ min: 1, max: 4 }),
    percent: fc.nat(PRICE_PERCENTS.length - 1),
    code: withCode,
  }),
  fc.record({
    op: fc.constant("change" as const),
    line: fc.nat(5),
    quantity: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    percent: fc.option(fc.nat(PRICE_PERCENTS.length - 1), { nil: undefined }),
    code: withCode,
  }),
  fc.record({ op: fc.constant("remove" as const), line: fc.nat(5), code: withCode }),
  fc.oneof(
    fc.record({
      op: fc.constant("discount" as const),
      kind: fc.constant("amount" as const),
      value: fc.constantFrom("0.00", "10.00", "50.00", "100.00", "250.00", "600.00"),
      code: withCode,
    }),
    fc.record({
      op: fc.constant("discount" as const),
      kind: fc.constant("percent" as const),
      value: fc.constantFrom("0.00", "5.00", "10.00", "25.00"),
      code: withCode,
    }),
  ),
);

/** The sale's discount share as an exact fraction [part, whole]. */
function shareOf(tx: any): [bigint, bigint] {
  let subtotal = 0n;
  let reductions = 0n;
  for (const item of tx.items) {
    const unit = toCents(item.unitPrice);
    const quantity = BigInt(item.quantity);
    subtotal += unit * quantity;
    const price = item.productId ? catalogue.get(item.productId) : undefined;
    if (price !== undefined && price > unit) reductions += (price - unit) * quantity;
  }
  let order = 0n; // in cents × 10 000
  if (tx.discount && subtotal > 0n) {
    const value = toCents(tx.discount.value);
    order = tx.discount.kind === "percent"
      ? value * subtotal
      : (value < subtotal ? value : subtotal) * 10_000n;
  }
  return [reductions * 10_000n + order, (subtotal + reductions) * 10_000n];
}

function overrideBody(code: boolean) {
  return code ? { override: { code: `${u.manager.employeeNumber}${MANAGER_PIN}` } } : {};
}

async function read(txId: string): Promise<any> {
  const res = await api(t.app, "GET", `/v1/transactions/${txId}`, { token: u.viewer.token });
  assertEquals(res.status, 200, res.text);
  return res.body;
}

/** Runs `op` on the sale `tx`; checks the answer; returns the sale as it is after it. */
async function run(tx: any, op: Op): Promise<any> {
  const path = `/v1/transactions/${tx.id}`;
  const line = "line" in op ? tx.items[op.line % Math.max(tx.items.length, 1)] : undefined;
  let res;
  if (op.op === "add") {
    const productId = productIds[op.product]!;
    res = await api(t.app, "POST", `${path}/items`, {
      token: associate.token,
      body: {
        productId,
        quantity: op.quantity,
        unitPrice: priceOf(productId, PRICE_PERCENTS[op.percent]!),
        ...overrideBody(op.code),
      },
    });
  } else if (op.op === "change") {
    if (!line) return tx;
    const body: Record<string, unknown> = { ...overrideBody(op.code) };
    if (op.quantity !== undefined) body.quantity = op.quantity;
    if (op.percent !== undefined) {
      body.unitPrice = priceOf(line.productId, PRICE_PERCENTS[op.percent]!);
    }
    res = await api(t.app, "PATCH", `${path}/items/${line.id}`, { token: associate.token, body });
  } else if (op.op === "remove") {
    if (!line) return tx;
    res = await api(t.app, "DELETE", `${path}/items/${line.id}`, {
      token: associate.token,
      ...(op.code ? { body: overrideBody(true) } : {}),
    });
  } else {
    res = await api(t.app, "POST", `${path}/discount`, {
      token: associate.token,
      body: { kind: op.kind, value: op.value, ...overrideBody(op.code) },
    });
  }
  assert([200, 201, 204, 403].includes(res.status), `${JSON.stringify(op)}: ${res.text}`);
  const after = await read(tx.id);
  if (res.status === 403) {
    assertEquals(res.body.code, "manager_override_required");
    assert(!op.code, `a valid code was refused: ${JSON.stringify(op)}`);
    assertEquals(after, tx, "a refused change changes nothing");
  }
  return after;
}

Deno.test("no sale completes with a discount share beyond the threshold without an approval for it", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArb, { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      async (ops, completeWithCode) => {
        const created = await api(t.app, "POST", "/v1/transactions", {
          token: associate.token,
          body: {
            locationId,
            items: [
              { productId: productIds[0], quantity: 1 },
              { productId: productIds[1], quantity: 1 },
            ],
          },
        });
        assertEquals(created.status, 201, created.text);
        let tx = created.body;
        for (const op of ops) tx = await run(tx, op);
        if (tx.balanceDue !== "0.00") {
          const paid = await api(t.app, "POST", `/v1/transactions/${tx.id}/payments`, {
            token: associate.token,
            body: { method: "card", amount: tx.balanceDue },
          });
          assertEquals(paid.status, 201, paid.text);
        }
        const done = await api(t.app, "POST", `/v1/transactions/${tx.id}/complete`, {
          token: associate.token,
          body: overrideBody(completeWithCode),
        });
        assert([200, 403].includes(done.status), done.text);
        if (done.status === 403) {
          assert(!completeWithCode, done.text);
          return;
        }
        const [part, whole] = shareOf(done.body);
        if (part * 10_000n <= THRESHOLD_BP * whole) return; // within the threshold
        const audits = await api(
          t.app,
          "GET",
          `/v1/audit-log?action=pos.discount_override&entityId=${tx.id}&limit=100`,
          { token: u.auditor.token },
        );
        assertEquals(audits.status, 200, audits.text);
        const covered = audits.body.data.some((entry: any) =>
          entry.details.approverId === u.manager.id &&
          part * 10_000n <= toCents(entry.details.share) * whole
        );
        assert(
          covered,
          `share ${part}/${whole} completed without an approval: ${JSON.stringify(audits.body)}`,
        );
      },
    ),
    { numRuns: 40 },
  );
});
