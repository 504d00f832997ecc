/**
 * Where an unlocked vault's data key lives: this process's memory, nowhere else (API §12).
 * `createDeps` makes one per process, empty, so a start (or restart) is always locked. The key
 * is a non-extractable `CryptoKey` (domain/vault/crypto.ts): its bytes are never visible to
 * JavaScript, so locking drops the only reference and nothing is left to zero. Each server
 * process holds its own: unlocking one process does not unlock another.
 */

/** The data key of an unlocked vault and the id it has in the vault's configuration. */
export interface HeldKey {
  key: CryptoKey;
  keyId: string;
}

export interface VaultKeyring {
  /** The data key while unlocked, else undefined. */
  current(): HeldKey | undefined;
  /** Unlocks: keeps `key` (non-extractable) until `forget()`. */
  hold(key: CryptoKey, keyId: string): void;
  /** Locks: drops the key. */
  forget(): void;
}

export function createVaultKeyring(): VaultKeyring {
  const slot: { held: HeldKey | undefined } = { held: undefined };
  return {
    current: () => slot.held,
    hold(key, keyId) {
      if (key.extractable) throw new Error("The vault's data key must be held non-extractable");
      slot.held = { key, keyId };
    },
    forget() {
      slot.held = undefined;
    },
  };
}
