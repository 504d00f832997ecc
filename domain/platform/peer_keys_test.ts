import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import {
  createPeerIdentity,
  deriveClusterKey,
  derivePairKey,
  openKeyFromPeer,
  sealKeyForPeer,
  verifyPeerProof,
} from "./peer_keys.ts";

const SECRET = "a-cluster-secret-that-is-at-least-32-bytes";

async function aesKey(): Promise<CryptoKey> {
  return await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, [
    "encrypt",
    "decrypt",
  ]);
}

async function rawOf(key: CryptoKey): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.exportKey("raw", key))).join(",");
}

Deno.test("a key sealed for a verified peer opens there, as the same key", async () => {
  const clusterKey = await deriveClusterKey(SECRET);
  const a = await createPeerIdentity("process-a", clusterKey);
  const b = await createPeerIdentity("process-b", clusterKey);
  assert(await verifyPeerProof(clusterKey, a));
  assert(await verifyPeerProof(clusterKey, b));
  const dataKey = await aesKey();
  const context = { from: "process-a", to: "process-b", purpose: "vault-data-key:k1" };
  const sealed = await sealKeyForPeer(dataKey, (await derivePairKey(a, b))!, context);
  const opened = await openKeyFromPeer(sealed, (await derivePairKey(b, a))!, context);
  assert(opened);
  assertEquals(await rawOf(opened), await rawOf(dataKey));
});

Deno.test("a proof made without the cluster secret, or for another id or key, fails", async () => {
  const clusterKey = await deriveClusterKey(SECRET);
  const forger = await createPeerIdentity("forged", await deriveClusterKey("another secret"));
  assertEquals(await verifyPeerProof(clusterKey, forger), false);
  const real = await createPeerIdentity("real", clusterKey);
  assertEquals(await verifyPeerProof(clusterKey, { ...real, processId: "copied" }), false);
  assertEquals(
    await verifyPeerProof(clusterKey, { ...real, publicKey: forger.publicKey }),
    false,
  );
  assertEquals(await verifyPeerProof(clusterKey, { ...real, proof: "not base64!" }), false);
});

Deno.test("a sealed key does not open for a third process, another context or when altered", async () => {
  const clusterKey = await deriveClusterKey(SECRET);
  const [a, b, c] = await Promise.all(
    ["a", "b", "c"].map((id) => createPeerIdentity(id, clusterKey)),
  );
  const context = { from: "a", to: "b", purpose: "vault-data-key:k1" };
  const sealed = await sealKeyForPeer(await aesKey(), (await derivePairKey(a!, b!))!, context);
  const pairBA = (await derivePairKey(b!, a!))!;
  assertEquals(await openKeyFromPeer(sealed, (await derivePairKey(c!, a!))!, context), undefined);
  assertEquals(
    await openKeyFromPeer(sealed, pairBA, { ...context, purpose: "vault-data-key:k2" }),
    undefined,
  );
  assertEquals(await openKeyFromPeer(sealed, pairBA, { ...context, to: "c" }), undefined);
  const [iv, data] = sealed.split(".");
  const flipped = data!.startsWith("A") ? "B" + data!.slice(1) : "A" + data!.slice(1);
  assertEquals(await openKeyFromPeer(`${iv}.${flipped}`, pairBA, context), undefined);
  assertEquals(await openKeyFromPeer("garbage", pairBA, context), undefined);
  assertEquals(await derivePairKey(a!, { processId: "x", publicKey: "AAAA" }), undefined);
});
