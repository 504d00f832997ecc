/**
 * Password and PIN hashing with bcrypt at the configured cost. Verifying against a missing
 * user still runs one bcrypt comparison (against a dummy hash of the same cost), so the
 * answer takes as long whether or not the email exists.
 */
import { hash, verify } from "@node-rs/bcrypt";

const dummyHashes = new Map<number, Promise<string>>();

function dummyHash(cost: number): Promise<string> {
  let existing = dummyHashes.get(cost);
  if (!existing) {
    const random = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16))
      .join("");
    existing = hash(random, cost);
    dummyHashes.set(cost, existing);
  }
  return existing;
}

export function hashSecret(secret: string, cost: number): Promise<string> {
  return hash(secret, cost);
}

/** Compares `secret` with `storedHash`; with no hash, burns the same time and says false. */
export async function verifySecret(
  secret: string,
  storedHash: string | null | undefined,
  cost: number,
): Promise<boolean> {
  if (!storedHash) {
    await verify(secret, await dummyHash(cost)).catch(() => false);
    return false;
  }
  try {
    return await verify(secret, storedHash);
  } catch {
    return false;
  }
}

/** Warms the dummy hash so the first failed login is not slower than later ones. */
export async function prepareDummyHash(cost: number): Promise<void> {
  await dummyHash(cost);
}
