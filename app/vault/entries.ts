/**
 * Use cases of vault entries (API §12). Every one needs the vault unlocked in this process
 * (423 `vault_locked` / `vault_not_initialized` otherwise, before anything else is looked at);
 * an entry is visible with a level on its category (else 404); creating, changing and deleting
 * need edit level. The secret and the notes are sealed with the data key, bound to the entry
 * id, its category id and the field (domain/vault/crypto.ts); lists and records never hold the
 * secret, only `revealSecret` returns it, audited in the same transaction.
 */
import { ForbiddenError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { hasLevel } from "../../domain/vault/access.ts";
import {
  openText,
  type SealContext,
  sealText,
  VaultIntegrityError,
} from "../../domain/vault/crypto.ts";
import type { Actor } from "../actor.ts";
import { audit, readAudited } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import type { ListParams } from "../schemas.ts";
import { findVisibleCategory } from "./categories_repo.ts";
import {
  deleteEntry,
  type EntryValues,
  findVisibleEntry,
  insertEntry,
  listVisibleEntries,
  lockEntry,
  toSealedEntry,
  updateEntry,
  visibleEntryWithSealed,
} from "./entries_repo.ts";
import type {
  CreateVaultEntryInput,
  UpdateVaultEntryInput,
  VaultEntryDetail,
} from "./vault_schemas.ts";
import { assertHeldKeyCurrent, requireUnlocked } from "./vault.ts";
import { type VaultViewer, viewerOf } from "./viewer.ts";

type EntryDeps = Pick<AppDeps, "db" | "vaultKeys" | "logger">;

function entryNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Vault entry "${id}" does not exist`);
}

function needEdit(): ForbiddenError {
  return new ForbiddenError("forbidden", "This needs edit level on the entry's vault category");
}

/** Opens a sealed field; a ciphertext that does not authenticate is logged (no content) and fails. */
async function open(
  deps: Pick<AppDeps, "logger">,
  key: CryptoKey,
  sealed: string,
  context: SealContext,
): Promise<string> {
  try {
    return await openText(key, sealed, context);
  } catch (error) {
    if (error instanceof VaultIntegrityError) {
      deps.logger.error("vault entry failed its integrity check", {
        entryId: context.entryId,
        field: context.field,
      });
    }
    throw error;
  }
}

export async function listEntries(
  deps: EntryDeps,
  actor: Actor,
  params: ListParams & { categoryId?: string },
) {
  await requireUnlocked(deps);
  return await listVisibleEntries(deps.db, viewerOf(actor), params);
}

export async function getEntry(
  deps: EntryDeps,
  actor: Actor,
  id: string,
): Promise<VaultEntryDetail> {
  const held = await requireUnlocked(deps);
  const found = await findVisibleEntry(deps.db, viewerOf(actor), id);
  if (!found) throw entryNotFound(id);
  const { entry } = found;
  const notes = found.notesSealed === null ? null : await open(deps, held.key, found.notesSealed, {
    field: "notes",
    entryId: id,
    categoryId: entry.categoryId,
  });
  return { ...entry, notes };
}

/** The category an entry is put into: invisible → 400 invalid_reference; below edit → 403. */
async function requireTargetCategory(db: Db, viewer: VaultViewer, categoryId: string) {
  const category = await findVisibleCategory(db, viewer, categoryId);
  if (!category) {
    throw new InvalidReferenceError("categoryId", `Vault category "${categoryId}" does not exist`);
  }
  if (!hasLevel(category.level, "edit")) throw needEdit();
  return category;
}

export async function createEntry(
  deps: AppDeps,
  actor: Actor,
  input: CreateVaultEntryInput,
): Promise<VaultEntryDetail> {
  const held = await requireUnlocked(deps);
  const id = deps.ids.uuid();
  const viewer = viewerOf(actor);
  return await withTransaction(deps.db, async (trx) => {
    await assertHeldKeyCurrent(deps, trx, held);
    await requireTargetCategory(trx, viewer, input.categoryId);
    const bound = { entryId: id, categoryId: input.categoryId };
    const notes = input.notes ?? null;
    const entry = await insertEntry(trx, {
      id,
      categoryId: input.categoryId,
      name: input.name,
      username: input.username ?? null,
      url: input.url ?? null,
      secretSealed: await sealText(held.key, input.secret, { ...bound, field: "secret" }),
      notesSealed: notes === null
        ? null
        : await sealText(held.key, notes, { ...bound, field: "notes" }),
      userId: actor.userId,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "vault.entry_created",
      entityType: "vault_entry",
      entityId: id,
      details: { name: entry.name, categoryId: entry.categoryId },
    });
    return { ...entry, notes };
  });
}

/**
 * Changes an entry (edit level on its category, and on the target category when it moves).
 * A move seals the secret and the notes again, bound to the new category.
 */
export async function changeEntry(
  deps: AppDeps,
  actor: Actor,
  id: string,
  changes: UpdateVaultEntryInput,
): Promise<VaultEntryDetail> {
  const held = await requireUnlocked(deps);
  const viewer = viewerOf(actor);
  return await withTransaction(deps.db, async (trx) => {
    await assertHeldKeyCurrent(deps, trx, held);
    const current = await lockEntry(trx, id);
    const category = current && await findVisibleCategory(trx, viewer, current.categoryId);
    if (!current || !category) throw entryNotFound(id);
    if (!hasLevel(category.level, "edit")) throw needEdit();
    const categoryId = changes.categoryId ?? current.categoryId;
    const moved = categoryId !== current.categoryId;
    if (moved) await requireTargetCategory(trx, viewer, categoryId);

    const was = { entryId: id, categoryId: current.categoryId };
    const bound = { entryId: id, categoryId };
    const secret = changes.secret ??
      (moved
        ? await open(deps, held.key, current.secretSealed, { ...was, field: "secret" })
        : undefined);
    const notes = changes.notes !== undefined
      ? changes.notes
      : current.notesSealed === null
      ? null
      : await open(deps, held.key, current.notesSealed, { ...was, field: "notes" });
    const values: Partial<EntryValues> = {
      categoryId: moved ? categoryId : undefined,
      name: changes.name,
      username: changes.username,
      url: changes.url,
      secretSealed: secret === undefined
        ? undefined
        : await sealText(held.key, secret, { ...bound, field: "secret" }),
    };
    if (changes.notes !== undefined || moved) {
      values.notesSealed = notes === null
        ? null
        : await sealText(held.key, notes, { ...bound, field: "notes" });
    }
    const entry = await updateEntry(trx, id, values, {
      userId: actor.userId,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "vault.entry_updated",
      entityType: "vault_entry",
      entityId: id,
      details: { name: entry.name, categoryId, changed: Object.keys(changes) },
    });
    return { ...entry, notes };
  });
}

export async function removeEntry(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await requireUnlocked(deps);
  const viewer = viewerOf(actor);
  await withTransaction(deps.db, async (trx) => {
    const current = await lockEntry(trx, id);
    const category = current && await findVisibleCategory(trx, viewer, current.categoryId);
    if (!current || !category) throw entryNotFound(id);
    if (!hasLevel(category.level, "edit")) throw needEdit();
    await deleteEntry(trx, id);
    await audit(deps, trx, actor, {
      action: "vault.entry_deleted",
      entityType: "vault_entry",
      entityId: id,
      details: { name: current.name, categoryId: current.categoryId },
    });
  });
}

/**
 * The secret of an entry the caller can see (view level). The sealed secret is read and the
 * reveal audited (`vault.entry_revealed`) in ONE statement, so the audit entry has committed
 * before the secret is opened, and a reveal that could not be audited reveals nothing. A
 * ciphertext that then fails its integrity check is audited too
 * (`vault.entry_integrity_failed`) and answers 500 without the secret.
 */
export async function revealSecret(deps: AppDeps, actor: Actor, id: string): Promise<string> {
  const held = await requireUnlocked(deps);
  const viewer = viewerOf(actor);
  const row = await readAudited(deps, deps.db, actor, visibleEntryWithSealed(deps.db, viewer, id), {
    action: "vault.entry_revealed",
    entityType: "vault_entry",
    entityIdColumn: "id",
    detailColumns: { name: "name", categoryId: "category_id" },
  });
  if (!row) throw entryNotFound(id);
  const found = toSealedEntry(row, viewer);
  const context: SealContext = { field: "secret", entryId: id, categoryId: found.entry.categoryId };
  try {
    return await open(deps, held.key, found.secretSealed, context);
  } catch (error) {
    if (error instanceof VaultIntegrityError) {
      await audit(deps, deps.db, actor, {
        action: "vault.entry_integrity_failed",
        entityType: "vault_entry",
        entityId: id,
        details: { name: found.entry.name, categoryId: found.entry.categoryId, field: "secret" },
      });
    }
    throw error;
  }
}
