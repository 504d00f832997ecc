/**
 * Rental charges (API §13): one per billing period up to `through`, monthly on the same day
 * (clamped to the month's end) or weekly; idempotent; none for rentals that ended; the
 * rental's balanceDue; pastDue after `rentalGraceDays`; far dates refused.
 */
import { addDays } from "../../domain/calendar.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { call, chargesOf, makeRental, rentalsSuite, type RentalUsers, today } from "./_fixtures.ts";

let t: TestApp;
let u: RentalUsers;
rentalsSuite((s) => ({ t, u } = s));

async function generate(through?: string, expected = 200) {
  return await call(
    t,
    u.desk,
    "POST",
    "/v1/rentals/charges/generate",
    through ? { through } : {},
    expected,
  );
}

Deno.test("monthly periods start on the same day, clamped to the month's end; weekly every 7 days", async () => {
  const monthly = await makeRental(t, u, { startDate: "2024-01-31", rate: "40.00" });
  const weekly = await makeRental(t, u, {
    startDate: "2024-02-26",
    billingInterval: "weekly",
    rate: "12.50",
  });
  const first = await generate("2024-04-30");
  assertEquals([first.created, first.skipped, first.rentals], [14, 0, 2]);
  const charges = await chargesOf(t, u, monthly.id);
  assertEquals(
    charges.map((c) => [c.periodStart, c.periodEnd, c.dueDate, c.amount, c.status]),
    [
      ["2024-01-31", "2024-02-28", "2024-01-31", "40.00", "unpaid"],
      ["2024-02-29", "2024-03-30", "2024-02-29", "40.00", "unpaid"],
      ["2024-03-31", "2024-04-29", "2024-03-31", "40.00", "unpaid"],
      ["2024-04-30", "2024-05-30", "2024-04-30", "40.00", "unpaid"],
    ],
  );
  const weeks = await chargesOf(t, u, weekly.id);
  assertEquals(weeks.length, 10); // Feb 26 .. Apr 29
  assertEquals(weeks[1].periodStart, "2024-03-04");
  assertEquals(weeks[0].periodEnd, "2024-03-03");
  const rental = await call(t, u.viewer, "GET", `/v1/rentals/${monthly.id}`);
  assertEquals(rental.balanceDue, "160.00");

  // Idempotent: the same run again creates nothing and counts what exists.
  const second = await generate("2024-04-30");
  assertEquals([second.created, second.skipped], [0, 14]);
  assertEquals((await chargesOf(t, u, monthly.id)).length, 4);
  // Later, only the new periods.
  const third = await generate("2024-05-31");
  assertEquals([third.created, third.skipped], [1 + 4, 14]); // May 6, 13, 20, 27
  assertEquals((await chargesOf(t, u, monthly.id)).length, 5);
});

Deno.test("returned and cancelled rentals get no new charges; their existing charges stay", async () => {
  const rental = await makeRental(t, u, { startDate: await today(t, -35) });
  await generate();
  const before = await chargesOf(t, u, rental.id);
  assertEquals(before.length, 2);
  await call(t, u.desk, "POST", `/v1/rentals/${rental.id}/return`, { condition: "good" }, 200);
  await generate(await today(t, 100));
  assertEquals(await chargesOf(t, u, rental.id), before);
  assertEquals((await call(t, u.viewer, "GET", `/v1/rentals/${rental.id}`)).balanceDue, "80.00");
});

Deno.test("pastDue lists rentals with a charge unpaid more than rentalGraceDays after it was due", async () => {
  const old = await makeRental(t, u, { startDate: await today(t, -12) });
  const fresh = await makeRental(t, u, { startDate: await today(t, -5) });
  await generate();
  const pastDue = async () =>
    (await call(t, u.viewer, "GET", "/v1/rentals?pastDue=true&limit=100")).data.map((
      r: { id: string },
    ) => r.id);
  let ids = await pastDue();
  assert(ids.includes(old.id));
  assert(!ids.includes(fresh.id));
  await call(t, u.settings, "PATCH", "/v1/config", { rentalGraceDays: 3 });
  ids = await pastDue();
  assert(ids.includes(fresh.id));
  await call(t, u.settings, "PATCH", "/v1/config", { rentalGraceDays: 10 });
});

Deno.test("generation refuses far and malformed dates and unknown fields, and needs rentals.edit", async () => {
  const far = await api(t.app, "POST", "/v1/rentals/charges/generate", {
    token: u.desk.token,
    body: { through: addDays(await today(t), 400) },
  });
  assertEquals(far.status, 400);
  for (const body of [{ through: "9999-12-31" }, { through: "2026-02-30" }, { when: "today" }]) {
    const res = await api(t.app, "POST", "/v1/rentals/charges/generate", {
      token: u.desk.token,
      body,
    });
    assertEquals(res.status, 400, JSON.stringify(body));
  }
  const viewer = await api(t.app, "POST", "/v1/rentals/charges/generate", {
    token: u.viewer.token,
    body: {},
  });
  assertEquals(viewer.status, 403);
  assertEquals(
    (await api(t.app, "GET", `/v1/rentals/${crypto.randomUUID()}/charges`, {
      token: u.viewer.token,
    })).status,
    404,
  );
});
