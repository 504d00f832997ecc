/**
 * The email outbox with three workers (one per server process) on one PostgreSQL: every
 * message is delivered exactly once — claimed by one worker (`FOR UPDATE SKIP LOCKED`), sent
 * once to the SMTP server, marked sent after a single attempt.
 */
import { assertEquals } from "../_helpers/assert.ts";
import type { TestApp } from "../_helpers/test_app.ts";
import { enqueueEmail } from "../../app/email/outbox.ts";
import { withTransaction } from "../../app/db/transaction.ts";
import { type Cluster, eventually, testServerUrl, withCluster } from "./_cluster.ts";

let c: Cluster;
let t: TestApp;

withCluster((cluster) => {
  c = cluster;
  t = cluster.t;
});

const MESSAGES = 75;

Deno.test({
  name: "three outbox workers send each email exactly once",
  ignore: !testServerUrl(),
  async fn() {
    const run = crypto.randomUUID().slice(0, 8);
    const subjects = Array.from({ length: MESSAGES }, (_, i) => `Cluster mail ${run} #${i}`);
    // One transaction: all become due at the same instant, so the workers contend for them.
    const ids = await withTransaction(t.deps.db, async (trx) => {
      const ids: string[] = [];
      for (const [i, subject] of subjects.entries()) {
        ids.push(
          await enqueueEmail(trx, t.deps, {
            to: `customer${i}@example.test`,
            subject,
            text: `Hello ${i}`,
          }),
        );
      }
      return ids;
    });
    // Workers poll every 5 s, 20 messages a pass each: a few passes between them.
    await eventually("every email sent", async () => {
      const pending = await t.deps.db.selectFrom("email_outbox").select("id")
        .where("id", "in", ids).where("status", "!=", "sent").execute();
      return pending.length === 0 ? true : undefined;
    }, 40_000);
    const rows = await t.deps.db.selectFrom("email_outbox").select(["status", "attempts"])
      .where("id", "in", ids).execute();
    assertEquals(rows.length, MESSAGES);
    assertEquals(rows.filter((r) => r.status === "sent" && r.attempts === 1).length, MESSAGES);
    // What the SMTP server got: each subject exactly once.
    const received = new Map<string, number>();
    for (const raw of c.smtp.messages) {
      const subject = /^Subject: (.*)$/im.exec(raw.replace(/\r\n[ \t]+/g, " "))?.[1]?.trim();
      if (subject?.includes(run)) received.set(subject, (received.get(subject) ?? 0) + 1);
    }
    assertEquals(received.size, MESSAGES);
    assertEquals([...received.values()].filter((n) => n !== 1), []);
    // And the work was shared: more than one process sent some of them.
    const senders = c.nodes.filter((n) => n.lines.some((l) => l.includes('"email sent"')));
    assertEquals(senders.length > 1, true, `senders: ${senders.length}`);
  },
});
