/** The outbox worker: SMTP delivery (against a minimal SMTP server), retries with backoff. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import {
  deliverDueEmails,
  type MailTransport,
  smtpTransport,
  startOutboxWorker,
} from "../../app/email/outbox_worker.ts";
import { movableClock, registerAndLogin } from "../auth/_auth_helpers.ts";
import { outboxTo } from "./_outbox.ts";
import { fakeSmtpServer } from "./_smtp.ts";

let t: TestApp;
const clock = movableClock();

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" }, clock });

Deno.test("without SMTP the reset email stays in the outbox; the worker does not start", async () => {
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
  const rows = await outboxTo(t, user.email);
  assertEquals(rows.length, 1);
  assertEquals(rows[0]!.status, "pending");
  assertEquals(rows[0]!.subject, "Reset your password");
  assertEquals(startOutboxWorker(t.deps), undefined);
});

Deno.test("the worker delivers the outbox over SMTP and forgets the body", async () => {
  const smtp = fakeSmtpServer();
  const transport = smtpTransport(smtp.url);
  try {
    const user = await registerAndLogin(t);
    await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
    const report = await deliverDueEmails(t.deps, transport);
    assert(report.sent >= 1, JSON.stringify(report));
    const mail = smtp.messages.find((m) => m.includes(user.email));
    assert(mail, "the message reached the SMTP server");
    assertStringIncludes(mail, "Subject: Reset your password");
    assertMatch(mail.replace(/=\r\n/g, ""), /http:\/\/shop\.test\/reset-password\?token=3D/);
    const rows = await outboxTo(t, user.email);
    assertEquals(rows[0]!.status, "sent");
    assertEquals(rows[0]!.bodyEncrypted, null);
    assert(rows[0]!.sentAt);
  } finally {
    transport.close();
    smtp.close();
  }
});

Deno.test("a failed delivery is retried with exponential backoff, then given up", async () => {
  const failing: MailTransport = {
    send: () => Promise.reject(new Error("connection refused")),
    close() {},
  };
  const user = await registerAndLogin(t);
  await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
  const advanced: number[] = [];
  try {
    for (let attempt = 1; attempt <= 8; attempt++) {
      await deliverDueEmails(t.deps, failing);
      const [row] = await outboxTo(t, user.email);
      assertEquals(row!.attempts, attempt);
      assertEquals(row!.lastError, "connection refused");
      if (attempt < 8) {
        assertEquals(row!.status, "pending");
        const delay = row!.nextAttemptAt.getTime() - clock.now().getTime();
        const expected = 30_000 * 2 ** (attempt - 1);
        assert(Math.abs(delay - expected) < 2000, `attempt ${attempt}: delay ${delay}`);
        // Not due yet: a pass now does not touch it.
        await deliverDueEmails(t.deps, failing);
        assertEquals(
          (await outboxTo(t, user.email))[0]!.attempts,
          attempt,
        );
        clock.advance(delay + 1000);
        advanced.push(delay + 1000);
      } else {
        assertEquals(row!.status, "failed");
      }
    }
  } finally {
    for (const ms of advanced) clock.advance(-ms);
  }
});

Deno.test("the started worker delivers on its own and stops cleanly", async () => {
  const smtp = fakeSmtpServer();
  const worker = startOutboxWorker(t.deps, {
    transport: smtpTransport(smtp.url),
    intervalMs: 50,
  })!;
  try {
    const user = await registerAndLogin(t);
    await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email: user.email } });
    const deadline = Date.now() + 5000;
    while (!smtp.messages.some((m) => m.includes(user.email)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert(smtp.messages.some((m) => m.includes(user.email)));
  } finally {
    await worker.stop();
    smtp.close();
  }
});
