/**
 * The composition root: builds `AppDeps` once and fills in every extension point from the
 * feature that provides it (a line per provider). The only file of `app/` that may import
 * every feature.
 */
import { findIdentifier } from "./accounts/identifiers_repo.ts";
import { allNameCopies } from "./accounts/name_copies.ts";
import { findMemberAccountId } from "./accounts/members_repo.ts";
import { ACTORS_CHANGED, createActorCache } from "./auth/actor_cache.ts";
import { hasUser } from "./auth/users_repo.ts";
import { createTokenSigner, signingSecret } from "./auth/tokens.ts";
import type { AppDeps, DepsInput } from "./deps.ts";
import { APP_VERSION } from "./deps.ts";
import type { FileOwners } from "./files/file_owners.ts";
import { createOutboxCipher } from "./email/outbox_cipher.ts";
import { createLocalFileStorage } from "./files/storage.ts";
import { systemClock, systemIds } from "./ids.ts";
import { findProduct } from "./inventory/products_repo.ts";
import { createModuleCache } from "./platform/module_cache.ts";
import { createCluster } from "./platform/cluster.ts";
import { createStoreZoneCache, STORE_CHANGED } from "./platform/store_zone.ts";
import { CONFIG_CHANGED, createRuntimeConfigCache } from "./platform/runtime_config.ts";
import { enrollmentNameCopies } from "./lessons/enrollments.ts";
import { rentalPort } from "./rentals/rental_payments.ts";
import { rentalNameCopies } from "./rentals/rentals.ts";
import { findRental } from "./rentals/rentals_repo.ts";
import { repairTicketPort } from "./repairs/repair_payments.ts";
import { findTicketStatus } from "./repairs/tickets_repo.ts";
import { createVaultKeyring } from "./vault/keyring.ts";
import { shareVaultAcrossProcesses } from "./vault/vault_peers.ts";

/** Record kinds that own files, each checked by the feature that owns the record. */
const FILE_OWNERS: FileOwners = {
  user: (db, id) => hasUser(db, id),
  member: async (db, id) => (await findMemberAccountId(db, id)) !== undefined,
  member_identifier: async (db, id) => (await findIdentifier(db, id)) !== undefined,
  product: async (db, id) => (await findProduct(db, id)) !== undefined,
  repair_ticket: async (db, id) => (await findTicketStatus(db, id)) !== undefined,
  rental_agreement: async (db, id) => (await findRental(db, id)) !== undefined,
};

export function createDeps(input: DepsInput): AppDeps {
  const clock = input.clock ?? systemClock;
  const ids = input.ids ?? systemIds;
  if (!input.config.jwtSecret && input.config.env !== "test") {
    input.logger.warn(
      "JWT_SECRET is not set: using a random per-process secret (development only)",
    );
  }
  const cluster = createCluster({
    db: input.db,
    listener: input.listener,
    secret: input.config.jwtSecret,
    logger: input.logger,
    ids,
    // Read when the process reports itself (joined: `deps` exists by then).
    vaultUnlocked: () => deps.vaultKeys.current() !== undefined,
  });
  const actors = createActorCache(input.db, { trusted: cluster.cachesTrusted });
  const storeZone = createStoreZoneCache(input.db, cluster.cachesTrusted);
  const runtimeConfig = createRuntimeConfigCache(input.db, cluster.cachesTrusted);
  cluster.handle(ACTORS_CHANGED, () => actors.invalidate());
  cluster.handle(STORE_CHANGED, () => storeZone.invalidate());
  cluster.handle(CONFIG_CHANGED, () => runtimeConfig.invalidate());
  cluster.onReset(() => {
    actors.invalidate();
    storeZone.invalidate();
    runtimeConfig.invalidate();
  });
  const deps: AppDeps = {
    config: input.config,
    db: input.db,
    dbKind: input.dbKind,
    clock,
    ids,
    logger: input.logger,
    tokens: createTokenSigner(signingSecret(input.config.jwtSecret), ids),
    modules: createModuleCache(input.db, clock),
    actors,
    cluster,
    storeZone,
    runtimeConfig,
    outboxCipher: createOutboxCipher(input.config.jwtSecret),
    files: input.files ?? createLocalFileStorage(input.config.filesDir, ids),
    fileOwners: FILE_OWNERS,
    repairTickets: input.repairTickets,
    // The rentals feature's port to the POS (charges paid at the register, buyouts).
    rentals: rentalPort(),
    // The copies of account and member names the rentals and enrollments searches read.
    nameCopies: allNameCopies([rentalNameCopies, enrollmentNameCopies]),
    // A member that stops hearing the others drops the key: it could miss a lock.
    // Its state is in the process's row at once (`ops status` reads it there).
    vaultKeys: createVaultKeyring(
      () => !cluster.joined || cluster.cachesTrusted(),
      () => void cluster.report(),
    ),
    startedAt: clock.now(),
    version: APP_VERSION,
  };
  // The repairs feature's port to the POS (it moves tickets and queues emails through deps).
  deps.repairTickets ??= repairTicketPort(deps);
  shareVaultAcrossProcesses(deps);
  return deps;
}
