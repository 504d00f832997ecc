/**
 * The KDF does not block the server: at the default cost (3,000,000 PBKDF2-SHA256 iterations,
 * ~400 ms on the reference machine), other requests are answered while an unlock works, and
 * the event loop keeps ticking. Prints the measured unlock time.
 */
import { assert } from "../_helpers/assert.ts";
import { createUserWithPermissions, withFreshApp } from "../_helpers/test_app.ts";
import { MASTER } from "./_fixtures.ts";

Deno.test("an unlock at the default KDF cost leaves the event loop free for other requests", async () => {
  await withFreshApp({}, async (t) => {
    const admin = await createUserWithPermissions(t, ["vault.admin"]);
    // Over a real socket, as clients reach the server.
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, t.app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    assert(t.deps.config.vaultKdfIterations === 3_000_000, "the default cost");
    const initStarted = performance.now();
    assert((await send("POST", "/v1/vault/initialize", { masterPassword: MASTER })).status === 201);
    const initMs = performance.now() - initStarted;
    assert((await send("POST", "/v1/vault/lock")).status === 204);
    const quietStarted = performance.now();
    assert((await send("POST", "/v1/vault/unlock", { masterPassword: MASTER })).status === 204);
    const quietMs = performance.now() - quietStarted;
    assert((await send("POST", "/v1/vault/lock")).status === 204);

    let maxGapMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
    }, 5);
    const latencies: number[] = [];
    let done = false;
    const started = performance.now();
    const unlocking = send("POST", "/v1/vault/unlock", { masterPassword: MASTER }).finally(() => {
      done = true;
    });
    try {
      while (!done) {
        const sent = performance.now();
        const res = await send("GET", "/v1/vault/status");
        if (!done) latencies.push(performance.now() - sent);
        assert(res.status === 200);
      }
      const unlock = await unlocking;
      const unlockMs = performance.now() - started;
      assert(unlock.status === 204, unlock.text);
      const worst = Math.max(...latencies);
      console.log(
        `vault KDF (PBKDF2-SHA256, 3,000,000 iterations): initialize ${initMs.toFixed(0)} ms, ` +
          `unlock ${quietMs.toFixed(0)} ms alone, ${unlockMs.toFixed(0)} ms under load: ` +
          `${latencies.length} other requests answered during it (worst ` +
          `${worst.toFixed(1)} ms); event loop max gap ${maxGapMs.toFixed(1)} ms`,
      );
      assert(quietMs >= 100, `the KDF did real work (${quietMs} ms)`);
      assert(
        latencies.length >= 3,
        `requests were answered during the unlock: ${latencies.length}`,
      );
      assert(worst < unlockMs / 2, `no request waited for the KDF (worst ${worst} ms)`);
    } finally {
      clearInterval(ticker);
      await unlocking.catch(() => {});
      await server.shutdown();
    }
  });
});
