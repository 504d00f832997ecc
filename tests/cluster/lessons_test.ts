/**
 * Lessons across three server processes on one PostgreSQL: a slot's capacity holds when its
 * seats are taken through every process at once, and session generation run from several
 * processes at once (servers and `ops lessons generate` on the database) creates each session
 * exactly once.
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { api, type TestApp } from "../_helpers/test_app.ts";
import { runOps } from "../_helpers/processes.ts";
import {
  enroll,
  instructor,
  type LessonsWorld,
  lessonsWorld,
  lessonType,
  member,
  slot,
} from "../lessons/_fixtures.ts";
import { type Cluster, PROCESSES, testServerUrl, withCluster } from "./_cluster.ts";

let c: Cluster;
let t: TestApp;
let w: LessonsWorld;

withCluster(async (cluster) => {
  c = cluster;
  t = cluster.t;
  w = await lessonsWorld(t);
});

const ignore = !testServerUrl();

async function freshSlot(overrides: Record<string, unknown> = {}) {
  const type = await lessonType(w);
  const teacher = await instructor(w);
  return await slot(w, teacher.id, type.id, overrides);
}

async function sessionCount(slotId: string): Promise<number> {
  const page = await api(t.app, "GET", `/v1/lesson-sessions?slotId=${slotId}&limit=1`, {
    token: w.editor.token,
  });
  assertEquals(page.status, 200, page.text);
  return page.body.pagination.total;
}

Deno.test({
  name: "enrollments into a 3-seat slot through every process at once: exactly 3 succeed",
  ignore,
  async fn() {
    const s = await freshSlot({ maxStudents: 3 });
    const members = await Promise.all(Array.from({ length: 9 }, () => member(w)));
    const results = await Promise.all(
      members.map((m, i) =>
        api(c.node(i % PROCESSES), "POST", "/v1/enrollments", {
          token: w.editor.token,
          body: { memberId: m, slotId: s.id, startDate: "2026-12-01", billingInterval: "monthly" },
        })
      ),
    );
    assertEquals(
      results.filter((r) => r.status === 201).length,
      3,
      results.map((r) => r.text).join("\n"),
    );
    assert(
      results.filter((r) => r.status !== 201).every((r) =>
        r.status === 409 && r.body.code === "slot_full"
      ),
      results.map((r) => r.text).join("\n"),
    );
    const got = await api(t.app, "GET", `/v1/schedule-slots/${s.id}`, { token: w.editor.token });
    assertEquals(got.body.enrolledCount, 3);
  },
});

Deno.test({
  name: "generation run through every process at once creates each session exactly once",
  ignore,
  async fn() {
    const s = await freshSlot({ dayOfWeek: 1, startTime: "08:00", maxStudents: 12 });
    for (let i = 0; i < 8; i++) await enroll(w, await member(w), s.id, { startDate: "2027-01-01" });
    const results = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          api(c.node(i % PROCESSES), "POST", "/v1/lesson-sessions/generate", {
            token: w.editor.token,
            body: { from: "2027-01-01", to: "2027-12-31", slotId: s.id },
          }),
      ),
    );
    assert(results.every((r) => r.status === 200), results.map((r) => r.text).join("\n"));
    // Mondays in 2027: 52, times 8 enrollments.
    assertEquals(results.reduce((sum, r) => sum + r.body.created, 0), 416);
    assert(results.every((r) => r.body.created + r.body.skipped.existing === 416));
    assertEquals(await sessionCount(s.id), 416);
  },
});

Deno.test({
  name: "`ops lessons generate` run by two processes at once on the database creates no duplicates",
  ignore,
  async fn() {
    const s = await freshSlot({ dayOfWeek: 3, startTime: "18:00", maxStudents: 12 });
    for (let i = 0; i < 6; i++) await enroll(w, await member(w), s.id, { startDate: "2027-01-01" });
    const dataDir = await Deno.makeTempDir({ prefix: "shop-cluster-ops-" });
    try {
      const args = ["lessons", "generate", "--from", "2027-01-01", "--to", "2027-12-31"];
      const runs = await Promise.all(
        [0, 1].map(() =>
          runOps([...args, "--slot", s.id, "--json"], {
            dataDir,
            env: { DATABASE_URL: c.databaseUrl, JWT_SECRET: t.deps.config.jwtSecret! },
          })
        ),
      );
      for (const run of runs) assertEquals(run.code, 0, run.stderr);
      const created = runs.map((r) => JSON.parse(r.stdout).created as number);
      // Wednesdays in 2027: 52, times 6 enrollments; split between the two runs in any way.
      assertEquals(created[0]! + created[1]!, 312, runs.map((r) => r.stdout).join("\n"));
      assertEquals(await sessionCount(s.id), 312);
      // And once more through a server: nothing left to create.
      const again = await api(c.node(2), "POST", "/v1/lesson-sessions/generate", {
        token: w.editor.token,
        body: { from: "2027-01-01", to: "2027-12-31", slotId: s.id },
      });
      assertEquals(again.body.created, 0, again.text);
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
