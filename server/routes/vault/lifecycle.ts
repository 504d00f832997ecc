/** The vault's lifecycle (API §12): status, initialize, unlock, lock, change the master password. */
import type { AppDeps } from "../../../app/deps.ts";
import {
  changeMasterPassword,
  initializeVault,
  lockVault,
  unlockVault,
  vaultStatus,
} from "../../../app/vault/vault.ts";
import {
  changeMasterPasswordBody,
  initializeVaultBody,
  unlockVaultBody,
  vaultStatusSchema,
} from "../../../app/vault/vault_schemas.ts";
import { ApiRouter } from "../../route.ts";
import { NO_STORE_NOTE, noContent, noStore, noStoreContent, VAULT_TAG } from "./_shared.ts";

const PER_PROCESS =
  " The data key lives in this server process's memory only: a restart leaves the vault " +
  "locked, and each server process is unlocked on its own.";

const LOCKOUT = " After 5 wrong master passwords from one user within 15 minutes (unlock and " +
  "change-master-password count together), that user's attempts get 429 `rate_limited` " +
  "(with `Retry-After`) for the rest of the window, even with the right password. The " +
  "counter lives in the database (it holds across processes and restarts), and each attempt " +
  "is counted before the password is tried, so parallel attempts cannot exceed it.";

export function vaultRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/vault", VAULT_TAG)
    .route({
      method: "get",
      path: "/status",
      summary: "Whether the vault is initialized and unlocked",
      description: "`locked` is this server process's state (true before initialization)." +
        PER_PROCESS,
      access: "vault.view",
      fullLogin: true,
      responses: { 200: { description: "The vault's state", schema: vaultStatusSchema } },
    }, async (c) => c.json(await vaultStatus(deps)))
    .route(
      {
        method: "post",
        path: "/initialize",
        summary: "Set the master password (once); the vault is unlocked afterwards",
        description:
          "The master password (12 to 1,024 characters) derives a key (PBKDF2-SHA256, at " +
          "least 600,000 iterations; the KDF and its parameters are stored with the vault) that " +
          "wraps a new random 256-bit data key. Nothing can recover the entries without it. A " +
          "second initialization → 409 `already_initialized`." + PER_PROCESS + NO_STORE_NOTE,
        access: "vault.admin",
        fullLogin: true,
        body: initializeVaultBody,
        responses: {
          201: {
            description: "Initialized and unlocked",
            schema: vaultStatusSchema,
            headers: ["Cache-Control"],
          },
        },
        errors: { 409: ["already_initialized"] },
      },
      (c, { body, actor }) =>
        noStore(
          c,
          async () => c.json(await initializeVault(deps, actor, body.masterPassword), 201),
        ),
    )
    .route(
      {
        method: "post",
        path: "/unlock",
        summary: "Unlock the vault with the master password",
        description: "Any vault.view holder may unlock. A wrong master password → 400 " +
          "`invalid_master_password` (the caller's session is fine). Unlocking an unlocked vault " +
          "checks the password again. Before initialization → 423 `vault_not_initialized`." +
          LOCKOUT + PER_PROCESS + NO_STORE_NOTE,
        access: "vault.view",
        fullLogin: true,
        body: unlockVaultBody,
        responses: noStoreContent("Unlocked"),
        errors: {
          400: ["invalid_master_password"],
          423: ["vault_not_initialized"],
          429: ["rate_limited"],
        },
      },
      (c, { body, actor }) =>
        noStore(c, async () => {
          await unlockVault(deps, actor, body.masterPassword);
          return c.body(null, 204);
        }),
    )
    .route({
      method: "post",
      path: "/lock",
      summary: "Lock the vault (drop the data key from memory)",
      description: "Locking a locked vault is a no-op (204). Before initialization → 423." +
        PER_PROCESS,
      access: "vault.admin",
      fullLogin: true,
      responses: noContent("Locked"),
      errors: { 423: ["vault_not_initialized"] },
    }, async (c, { actor }) => {
      await lockVault(deps, actor);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/change-master-password",
        summary: "Change the master password (the vault must be unlocked)",
        description:
          "Checks `currentPassword` like an unlock (wrong → 400 `invalid_master_password`, same " +
          "lockout), then wraps the same data key again under `newPassword` (12 to 1,024 " +
          "characters) with a fresh salt: entries are not re-encrypted and stay readable. Two " +
          "changes at once: one wins, the other → 409 `concurrent_update`." + LOCKOUT +
          NO_STORE_NOTE,
        access: "vault.admin",
        fullLogin: true,
        body: changeMasterPasswordBody,
        responses: noStoreContent("Changed"),
        errors: {
          400: ["invalid_master_password"],
          423: ["vault_locked", "vault_not_initialized"],
          429: ["rate_limited"],
        },
      },
      (c, { body, actor }) =>
        noStore(c, async () => {
          await changeMasterPassword(deps, actor, body);
          return c.body(null, 204);
        }),
    );
}
