/**
 * Where an unlocked vault's data key lives: this process's memory, nowhere else (API §12).
 * `createDeps` makes one per process, empty, so a start (or restart) is always locked. The key
 * used to seal and open entries is a non-extractable `CryptoKey` (domain/vault/crypto.ts): its
 * bytes are never visible to JavaScript. To hand the key to the other server processes on the
 * same PostgreSQL (app/vault/vault_peers.ts), the keyring there also keeps an extractable copy
 * that only `transferable()` gives out, for sealing to a verified peer. Locking drops both
 * references; nothing else holds the key.
 */

/** The data key of an unlocked vault and the id it has in the vault's configuration. */
export interface HeldKey {
  key: CryptoKey;
  keyId: string;
}

export interface VaultKeyring {
  /** The data key while unlocked, else undefined. */
  current(): HeldKey | undefined;
  /** The extractable copy (to seal for a peer process) while unlocked, else undefined. */
  transferable(): HeldKey | undefined;
  /**
   * Unlocks: keeps `key` (non-extractable) until `forget()`, and its extractable twin when the
   * process may have peers to hand it to (PostgreSQL).
   */
  hold(key: CryptoKey, keyId: string, transferable?: CryptoKey): void;
  /** Locks: drops the key. */
  forget(): void;
}

/**
 * `stillValid`: checked on every read; when it turns false the key is dropped (a member of a
 * cluster that stopped hearing the others could miss a lock). `onChange` runs after every
 * unlock and lock (the process reports its vault's state, app/platform/cluster.ts).
 */
export function createVaultKeyring(
  stillValid: () => boolean = () => true,
  onChange: () => void = () => {},
): VaultKeyring {
  const slot: { held: HeldKey | undefined; transferable: HeldKey | undefined } = {
    held: undefined,
    transferable: undefined,
  };
  const check = () => {
    if (slot.held && !stillValid()) {
      slot.held = slot.transferable = undefined;
      onChange();
    }
  };
  return {
    current() {
      check();
      return slot.held;
    },
    transferable() {
      check();
      return slot.transferable;
    },
    hold(key, keyId, transferable) {
      if (key.extractable) throw new Error("The vault's data key must be held non-extractable");
      if (transferable && !transferable.extractable) {
        throw new Error("The transferable copy must be extractable");
      }
      slot.held = { key, keyId };
      slot.transferable = transferable && { key: transferable, keyId };
      onChange();
    },
    forget() {
      const had = slot.held !== undefined;
      slot.held = slot.transferable = undefined;
      if (had) onChange();
    },
  };
}
