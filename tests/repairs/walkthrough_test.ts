/**
 * The repair bench as a new user walks it (issue 17 "Done means"): intake → estimate approved
 * → parts → ready for pickup (email in the outbox) → paid at the register → picked up, with
 * the documented statuses, money figures, history and audit trail at each step.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { mailsTo, outboxTo } from "../email/_outbox.ts";
import {
  addLine,
  call,
  makeAccount,
  makeProduct,
  payAndComplete,
  repairsSuite,
  type RepairUsers,
  startPayment,
  storeWithDrawer,
  walk,
} from "./_fixtures.ts";

let t: TestApp;
let u: RepairUsers;
repairsSuite((s) => ({ t, u } = s));

Deno.test("walk-through: intake → estimate approved → parts → ready for pickup → paid → picked up", async () => {
  const { locationId } = await storeWithDrawer(t, u);
  const account = await makeAccount(t, u, { email: "grace.hopper@example.test" });
  const strings = await makeProduct(t, u, { name: "Violin strings set", price: "24.00" });
  const glue = await makeProduct(t, u, { name: "Hide glue", price: "2.50", type: "consumable" });

  // Intake at the counter: a ticket with a number readable at the counter.
  const ticket = await call(t, u.tech, "POST", "/v1/repair-tickets", {
    accountId: account.id,
    itemDescription: "Violin 4/4, open seam",
    serialNumber: " VN-2231 ",
    estimate: "80.00",
    dueDate: "2026-12-15",
    locationId,
  });
  assert(/^R-\d{6}$/.test(ticket.ticketNumber), ticket.ticketNumber);
  assertEquals([ticket.status, ticket.serialNumber, ticket.accountName], [
    "new",
    "VN-2231",
    account.name,
  ]);
  assertEquals(ticket.intakeAt, null);
  const intake = await walk(t, u, ticket.id, "intake");
  assertEquals(intake.status, "intake");
  assert(intake.intakeAt !== null);
  const claim = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/claim-check`);
  assertEquals(claim.intakeAt, intake.intakeAt);
  assertEquals(claim.account, { id: account.id, name: account.name });

  // The customer approves the estimate on the phone.
  const approved = await call(
    t,
    u.tech,
    "POST",
    `/v1/repair-tickets/${ticket.id}/estimate/approve`,
    {
      approvedByName: "Grace Hopper",
      method: "phone",
    },
    200,
  );
  assertEquals(approved.estimateApproval.amount, "80.00");
  assertEquals(approved.estimateApproval.recordedBy, u.tech.id);

  // Work and parts: labor, a part from stock, glue from the shop's consumables.
  await walk(t, u, ticket.id, "in_progress", "pending_parts", "in_progress");
  await addLine(t, u, ticket.id, {
    kind: "labor",
    description: "Reglue seam",
    quantity: 1,
    unitPrice: "45.00",
  });
  await addLine(t, u, ticket.id, { kind: "part", productId: strings.id, quantity: 1 });
  const internal = await addLine(t, u, ticket.id, {
    kind: "part",
    productId: glue.id,
    quantity: 2,
  });
  assertEquals(internal.isInternal, true);
  const worked = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}`);
  assertEquals([worked.customerTotal, worked.internalCost, worked.balanceDue], [
    "69.00",
    "5.00",
    "69.00",
  ]);
  assertEquals(worked.estimateExceeded, false);

  // Ready for pickup: the customer's email is in the outbox, and the ticket on the list.
  await walk(t, u, ticket.id, "ready_for_pickup");
  const mails = await mailsTo(t, "grace.hopper@example.test");
  assertEquals(mails.length, 1);
  assert(mails[0]!.includes(ticket.ticketNumber) && mails[0]!.includes("69.00"), mails[0]);
  assertEquals(
    (await outboxTo(t, "grace.hopper@example.test"))[0]!.subject,
    `Your repair ${ticket.ticketNumber} is ready for pickup`,
  );
  const ready = await call(t, u.viewer, "GET", "/v1/repair-tickets/ready-for-pickup?limit=100");
  const listed = ready.data.find((x: { id: string }) => x.id === ticket.id);
  assertEquals(listed.balanceDue, "69.00");

  // Paid at the register: the lines come from the ticket, labor as service, parts as goods.
  const tx = await startPayment(t, u, locationId, ticket.id, { accountId: account.id });
  assertEquals(
    tx.items.map((i: { description: string; taxCategory: string; unitPrice: string }) => [
      i.description,
      i.taxCategory,
      i.unitPrice,
    ]),
    [["Reglue seam", "service", "45.00"], ["Violin strings set", "goods", "24.00"]],
  );
  const done = await payAndComplete(t, u, tx);
  assertEquals(done.status, "complete");
  const receipt = await call(t, u.cashier, "GET", `/v1/transactions/${tx.id}/receipt`);
  assert(!JSON.stringify(receipt).includes("Hide glue"));

  // Picked up, paid in full, with a history of every step.
  const after = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}`);
  assertEquals([after.status, after.amountPaid, after.balanceDue], ["picked_up", "69.00", "0.00"]);
  const history = await call(t, u.viewer, "GET", `/v1/repair-tickets/${ticket.id}/history`);
  assertEquals(
    history.data.map((h: { fromStatus: string; toStatus: string }) =>
      `${h.fromStatus}>${h.toStatus}`
    ),
    [
      "new>intake",
      "intake>in_progress",
      "in_progress>pending_parts",
      "pending_parts>in_progress",
      "in_progress>ready_for_pickup",
      "ready_for_pickup>picked_up",
    ],
  );
  assertEquals(history.data.at(-1).changedBy, u.cashier.id);
  const audit = await call(
    t,
    u.settings,
    "GET",
    `/v1/audit-log?action=repair.estimate_approved&entityId=${ticket.id}`,
  );
  assertEquals(audit.data.length, 1);
  assertEquals(audit.data[0].details.approvedByName, "Grace Hopper");
  assertEquals(audit.data[0].details.method, "phone");
});
