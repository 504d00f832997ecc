/** Stored payment methods: never a card number, one default per account (API §5). */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { accountsSuite, newAccountWithMember as newAccountOf } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s));

const newAccountWithMember = () => newAccountOf(t, editor);

// ----------------------------------------------------------------------- payment methods

Deno.test("payment methods refuse a full card number anywhere in the body", async () => {
  const { accountId } = await newAccountWithMember();
  for (
    const body of [
      { type: "card", brand: "4111 1111 1111 1111" },
      { type: "card", brand: "visa", processorPaymentMethodId: "4111-1111-1111-1111" },
      { type: "other", processor: "pan 5555555555554444 here" },
    ]
  ) {
    const res = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
      token: editor.token,
      body,
    });
    assertEquals(res.status, 400, JSON.stringify(body));
    assert(!res.text.includes("4111") && !res.text.includes("5555"), "the PAN is not echoed");
  }
  const full = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: { type: "card", cardNumber: "4111111111111111" },
  });
  assertEquals(full.status, 400);
  const ok = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: {
      type: "card",
      brand: "visa",
      last4: "1111",
      expMonth: 12,
      expYear: 2030,
      processor: "stripe",
      processorPaymentMethodId: "pm_4111111111111112",
    },
  });
  assertEquals(ok.status, 201);
  assertEquals(ok.body.last4, "1111");
  const patched = await api(t.app, "PATCH", `/v1/payment-methods/${ok.body.id}`, {
    token: editor.token,
    body: { brand: "4111111111111111" },
  });
  assertEquals(patched.status, 400);
  const badLast4 = await api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
    token: editor.token,
    body: { type: "card", last4: "41111" },
  });
  assertEquals(badLast4.status, 400);
});

Deno.test("one default payment method per account: a new default unsets the previous one", async () => {
  const { accountId } = await newAccountWithMember();
  const create = (isDefault: boolean) =>
    api(t.app, "POST", `/v1/accounts/${accountId}/payment-methods`, {
      token: editor.token,
      body: { type: "ach", isDefault },
    });
  const first = await create(true);
  const second = await create(true);
  assertEquals(second.body.isDefault, true);
  const list = async () =>
    (await api(t.app, "GET", `/v1/accounts/${accountId}/payment-methods?sort=createdAt`, {
      token: viewer.token,
    })).body.data;
  assertEquals((await list()).map((p: { isDefault: boolean }) => p.isDefault), [false, true]);
  const back = await api(t.app, "PATCH", `/v1/payment-methods/${first.body.id}`, {
    token: editor.token,
    body: { isDefault: true },
  });
  assertEquals(back.body.isDefault, true);
  assertEquals((await list()).map((p: { isDefault: boolean }) => p.isDefault), [true, false]);

  // Racing "make default" requests: exactly one default remains.
  const others = await Promise.all(Array.from({ length: 6 }, () => create(false)));
  const raced = await Promise.all(
    others.map((o) =>
      api(t.app, "PATCH", `/v1/payment-methods/${o.body.id}`, {
        token: editor.token,
        body: { isDefault: true },
      })
    ),
  );
  for (const res of raced) assertEquals(res.status, 200);
  const defaults = (await list()).filter((p: { isDefault: boolean }) => p.isDefault);
  assertEquals(defaults.length, 1);
  const parallelCreates = await Promise.all(Array.from({ length: 5 }, () => create(true)));
  for (const res of parallelCreates) assertEquals(res.status, 201);
  assertEquals((await list()).filter((p: { isDefault: boolean }) => p.isDefault).length, 1);

  assertEquals(
    (await api(t.app, "DELETE", `/v1/payment-methods/${first.body.id}`, { token: admin.token }))
      .status,
    204,
  );
  assertEquals(
    (await api(t.app, "DELETE", `/v1/payment-methods/${first.body.id}`, { token: admin.token }))
      .status,
    404,
  );
});
