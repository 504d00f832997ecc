import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
  assertThrows,
} from "../../tests/_helpers/assert.ts";
import { fromBase64, toBase64 } from "../base64.ts";
import {
  deriveKek,
  generateDataKey,
  isValidKdfParams,
  kdfNeedsUpgrade,
  type KdfParams,
  MIN_KDF_ITERATIONS,
  newKdfParams,
  openText,
  type SealContext,
  sealText,
  unwrapDataKey,
  VaultIntegrityError,
  wrapDataKey,
} from "./crypto.ts";

const PASSWORD = "correct horse battery staple";
const ENTRY = "0190a7e2-0000-7000-8000-000000000001";
const OTHER_ENTRY = "0190a7e2-0000-7000-8000-000000000002";
const CATEGORY = "0190a7e2-0000-7000-8000-0000000000c1";
const OTHER_CATEGORY = "0190a7e2-0000-7000-8000-0000000000c2";
const SECRET: SealContext = { field: "secret", entryId: ENTRY, categoryId: CATEGORY };

/** The cheapest parameters the rules allow (tests only). */
const params: KdfParams = newKdfParams(MIN_KDF_ITERATIONS);

/** One character of base64 part `part` (1: IV, 2: ciphertext) of `sealed` flipped. */
function flip(sealed: string, part: 1 | 2, at = 0): string {
  const parts = sealed.split(".");
  const bytes = fromBase64(parts[part]!)!;
  bytes[at] = bytes[at]! ^ 0x01;
  parts[part] = toBase64(bytes);
  return parts.join(".");
}

Deno.test("newKdfParams() refuses fewer than 600,000 iterations and salts every call", () => {
  assertThrows(() => newKdfParams(599_999), RangeError);
  assertThrows(() => newKdfParams(1.5e6 + 0.5), RangeError);
  const a = newKdfParams(MIN_KDF_ITERATIONS);
  const b = newKdfParams(MIN_KDF_ITERATIONS);
  assertNotEquals(a.salt, b.salt);
  assertEquals(fromBase64(a.salt)!.length, 16);
  assert(isValidKdfParams(a));
  assert(!isValidKdfParams({ ...a, iterations: 1000 }));
  assert(!isValidKdfParams({ ...a, algorithm: "MD5" }));
  assert(!isValidKdfParams({ ...a, salt: "not base64!" }));
  assert(!isValidKdfParams(null));
  assert(kdfNeedsUpgrade(a, MIN_KDF_ITERATIONS + 1));
  assert(!kdfNeedsUpgrade(a, MIN_KDF_ITERATIONS));
});

Deno.test("the data key unwraps with the right master password only", async () => {
  const dataKey = await generateDataKey();
  const wrapped = await wrapDataKey(dataKey, await deriveKek(PASSWORD, params));
  const sealed = await sealText(dataKey, "s3cret!", SECRET);

  const unwrapped = await unwrapDataKey(wrapped, await deriveKek(PASSWORD, params));
  assert(unwrapped);
  assertEquals(unwrapped.extractable, false, "held in memory as a non-extractable key");
  assertEquals(await openText(unwrapped, sealed, SECRET), "s3cret!");

  assertEquals(await unwrapDataKey(wrapped, await deriveKek(PASSWORD + " ", params)), undefined);
  const otherSalt = { ...params, salt: newKdfParams(MIN_KDF_ITERATIONS).salt };
  assertEquals(await unwrapDataKey(wrapped, await deriveKek(PASSWORD, otherSalt)), undefined);
});

Deno.test("changing the master password re-wraps the same data key", async () => {
  const dataKey = await generateDataKey();
  const sealed = await sealText(dataKey, "alarm code 1234", SECRET);
  const oldWrapped = await wrapDataKey(dataKey, await deriveKek(PASSWORD, params));

  const current = await unwrapDataKey(oldWrapped, await deriveKek(PASSWORD, params), {
    extractable: true,
  });
  const newParams = newKdfParams(MIN_KDF_ITERATIONS);
  const newWrapped = await wrapDataKey(
    current!,
    await deriveKek("a brand new passphrase", newParams),
  );
  assertNotEquals(newWrapped, oldWrapped);

  const reopened = await unwrapDataKey(
    newWrapped,
    await deriveKek("a brand new passphrase", newParams),
  );
  assertEquals(await openText(reopened!, sealed, SECRET), "alarm code 1234");
  assertEquals(await unwrapDataKey(newWrapped, await deriveKek(PASSWORD, newParams)), undefined);
});

Deno.test("sealText() uses a fresh IV per write: equal secrets give different ciphertexts", async () => {
  const key = await generateDataKey();
  const a = await sealText(key, "same", SECRET);
  const b = await sealText(key, "same", SECRET);
  assertNotEquals(a, b);
  assertNotEquals(a.split(".")[1], b.split(".")[1]);
  assert(!a.includes("same"));
});

Deno.test("a tampered ciphertext, IV or tag never decrypts", async () => {
  const key = await generateDataKey();
  const sealed = await sealText(key, "supplier portal password", SECRET);
  const tagAt = fromBase64(sealed.split(".")[2]!)!.length - 1;
  for (
    const tampered of [
      flip(sealed, 1),
      flip(sealed, 1, 11),
      flip(sealed, 2),
      flip(sealed, 2, tagAt),
      sealed.slice(0, -4),
      sealed.replace(/^v1\./, "v2."),
      `${sealed}.extra`,
      "v1.AAAA.AAAA",
      "",
    ]
  ) {
    await assertRejects(() => openText(key, tampered, SECRET), VaultIntegrityError);
  }
});

Deno.test("a ciphertext moved to another entry, category or field does not decrypt", async () => {
  const key = await generateDataKey();
  const sealed = await sealText(key, "terminal admin PIN", SECRET);
  for (
    const elsewhere of [
      { ...SECRET, entryId: OTHER_ENTRY },
      { ...SECRET, categoryId: OTHER_CATEGORY },
      { ...SECRET, field: "notes" as const },
    ]
  ) {
    await assertRejects(() => openText(key, sealed, elsewhere), VaultIntegrityError);
  }
  assertEquals(await openText(key, sealed, SECRET), "terminal admin PIN");
});

Deno.test("a ciphertext of another vault's data key does not decrypt", async () => {
  const sealed = await sealText(await generateDataKey(), "x", SECRET);
  const otherKey = await generateDataKey();
  await assertRejects(() => openText(otherKey, sealed, SECRET), VaultIntegrityError);
});

Deno.test("a tampered wrapped data key is refused like a wrong password", async () => {
  const dataKey = await generateDataKey();
  const kek = await deriveKek(PASSWORD, params);
  const wrapped = await wrapDataKey(dataKey, kek);
  assertEquals(await unwrapDataKey(flip(wrapped, 2), kek), undefined);
  assertEquals(await unwrapDataKey(flip(wrapped, 1), kek), undefined);
  await assertRejects(() => unwrapDataKey("garbage", kek), VaultIntegrityError);
});

Deno.test("deriveKek() refuses stored parameters below the minimum", async () => {
  await assertRejects(
    () => deriveKek(PASSWORD, { ...params, iterations: 1000 }),
    VaultIntegrityError,
  );
});

Deno.test("unicode and long secrets round-trip", async () => {
  const key = await generateDataKey();
  const text = "pässwörd 🔑 ".repeat(500);
  assertEquals(await openText(key, await sealText(key, text, SECRET), SECRET), text);
});
