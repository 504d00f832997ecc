/** Payment-processor links: unique per (processor, externalCustomerId) (API §5). */
import { assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { accountsSuite, MISSING, newAccountWithMember as newAccountOf } from "./_fixtures.ts";

let t: TestApp;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;

accountsSuite((s) => ({ t, u: { viewer, editor, admin } } = s));

const newAccountWithMember = () => newAccountOf(t, editor);

// ----------------------------------------------------------------------- processor links

Deno.test("processor links are unique per (processor, externalCustomerId) → 409 duplicate", async () => {
  const a = await newAccountWithMember();
  const b = await newAccountWithMember();
  const link = await api(t.app, "POST", `/v1/accounts/${a.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "stripe", externalCustomerId: "cus_123" },
  });
  assertEquals(link.status, 201);
  const dup = await api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "Stripe", externalCustomerId: "cus_123" },
  });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.code, "duplicate");
  const other = await api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
    token: editor.token,
    body: { processor: "square", externalCustomerId: "cus_123" },
  });
  assertEquals(other.status, 201);
  const clash = await api(t.app, "PATCH", `/v1/processor-links/${other.body.id}`, {
    token: editor.token,
    body: { processor: "stripe" },
  });
  assertEquals(clash.status, 409);
  const raced = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        api(t.app, "POST", `/v1/accounts/${b.accountId}/processor-links`, {
          token: editor.token,
          body: { processor: "adyen", externalCustomerId: "race" },
        }),
    ),
  );
  assertEquals(raced.filter((r) => r.status === 201).length, 1);
  assertEquals(raced.filter((r) => r.status === 409).length, 3);
  const list = await api(
    t.app,
    "GET",
    `/v1/accounts/${b.accountId}/processor-links?sort=processor`,
    {
      token: viewer.token,
    },
  );
  assertEquals(list.body.data.map((l: { processor: string }) => l.processor), ["adyen", "square"]);
  assertEquals(
    (await api(t.app, "DELETE", `/v1/processor-links/${other.body.id}`, { token: admin.token }))
      .status,
    204,
  );
  assertEquals(
    (await api(t.app, "GET", `/v1/accounts/${MISSING}/processor-links`, { token: viewer.token }))
      .status,
    404,
  );
});
