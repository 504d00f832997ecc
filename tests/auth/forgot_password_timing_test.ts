/**
 * `POST /auth/forgot-password` takes as long for an unknown email as for a known one (issue 15
 * item 11: it used to answer in ~1 ms for unknown emails and ~7 ms for known ones, which told
 * anyone which addresses have an account).
 */
import { assert } from "../_helpers/assert.ts";
import { api, createUserWithPermissions, type TestApp } from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";
import { uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;

withTestApp((app) => {
  t = app;
}, { env: { AUTH_RATE_LIMIT: "off" } });

async function timed(email: string): Promise<number> {
  const started = performance.now();
  const res = await api(t.app, "POST", "/v1/auth/forgot-password", { body: { email } });
  const elapsed = performance.now() - started;
  if (res.status !== 202) throw new Error(`${res.status} ${res.text}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

Deno.test("forgot-password answers unknown and known emails in about the same time", async () => {
  const rounds = 15;
  // Each known address is asked once, so every known request sends an email (the slow path).
  const users = [];
  for (let i = 0; i < rounds; i++) users.push(await createUserWithPermissions(t, []));
  await timed(uniqueEmail("warm-up"));
  await timed(users[0]!.email);
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 1; i < rounds; i++) {
    known.push(await timed(users[i]!.email));
    unknown.push(await timed(uniqueEmail("ghost")));
  }
  const k = median(known);
  const u = median(unknown);
  const gap = Math.abs(k - u);
  assert(
    gap <= Math.max(2, 0.15 * Math.max(k, u)),
    `median known ${k.toFixed(2)} ms vs unknown ${u.toFixed(2)} ms`,
  );
});
