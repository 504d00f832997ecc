/**
 * SQL of vault entries. Reads go through the caller's visibility in the same statement (the
 * grants aggregated per category, categories_repo.ts): a list is one query, a record is one
 * query. Sealed columns are read only by the use cases that open them (detail, reveal, edit).
 *
 * Lock: an entry row is locked `FOR UPDATE` (`lockEntry`) by every change of it, so two
 * edits of one entry (or an edit and a delete) run one after another.
 */
import type { Transaction } from "kysely";
import { effectiveLevel, type VaultLevel } from "../../domain/vault/access.ts";
import type { KeyedQuery } from "../db/compiled.ts";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import { grantedRanks, visibleTo } from "./categories_repo.ts";
import type { VaultEntry } from "./vault_schemas.ts";
import type { VaultViewer } from "./viewer.ts";

const ENTRY_COLUMNS = [
  "e.id",
  "e.category_id",
  "e.name",
  "e.username",
  "e.url",
  "e.created_by",
  "e.updated_by",
  "e.created_at",
  "e.updated_at",
] as const;
/** The same columns for RETURNING (no alias). */
const RETURNED_COLUMNS = ENTRY_COLUMNS.map((c) => c.slice(2)) as unknown as readonly [
  "id",
  "category_id",
  "name",
  "username",
  "url",
  "created_by",
  "updated_by",
  "created_at",
  "updated_at",
];

interface EntryRow {
  id: string;
  category_id: string;
  name: string;
  username: string | null;
  url: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

function toEntry(row: EntryRow): VaultEntry {
  return {
    id: row.id,
    categoryId: row.category_id,
    name: row.name,
    username: row.username,
    url: row.url,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

function visibleEntries(db: Db, viewer: VaultViewer) {
  return db.selectFrom("vault_entries as e")
    .leftJoin(grantedRanks(db, viewer.userId).as("g"), "g.category_id", "e.category_id")
    .where(({ ref }) => visibleTo(viewer, ref("g.rank")));
}

/** The entries the viewer sees (never a sealed column); `q` over name, username and URL. */
export function listVisibleEntries(
  db: Db,
  viewer: VaultViewer,
  params: ListParams & { categoryId?: string },
) {
  let query = visibleEntries(db, viewer).select(ENTRY_COLUMNS);
  if (params.categoryId) query = query.where("e.category_id", "=", params.categoryId);
  if (params.q) query = query.where(containsText("e.search", params.q, LOWERED));
  return paginate(query, params, {
    sortColumns: { name: "e.name", createdAt: "e.created_at", updatedAt: "e.updated_at" },
    tieBreaker: "e.id",
    map: toEntry,
  });
}

export interface SealedEntry {
  entry: VaultEntry;
  level: VaultLevel;
  secretSealed: string;
  notesSealed: string | null;
}

function visibleEntryWithSealedQuery(db: Db, viewer: VaultViewer, id: string) {
  return visibleEntries(db, viewer)
    .select([...ENTRY_COLUMNS, "e.secret_sealed", "e.notes_sealed", "g.rank"])
    .where("e.id", "=", id);
}

/**
 * The read of one entry the viewer sees, with its sealed fields and the viewer's rank, keyed
 * for a statement that embeds it: its text depends only on whether there is a user (their
 * grants are looked up twice, directly and through their roles) and on the ceiling.
 */
export function visibleEntryWithSealed(
  db: Db,
  viewer: VaultViewer,
  id: string,
): KeyedQuery<SealedEntryRow> {
  const { userId, ceiling } = viewer;
  return {
    key: `vault entry|${userId === null}|${
      ceiling.all ? "all" : ceiling.maxRank === 0 ? "none" : "granted"
    }`,
    values: userId === null ? [id] : [userId, userId, id],
    build: () => visibleEntryWithSealedQuery(db, viewer, id),
  };
}

export type SealedEntryRow = EntryRow & {
  secret_sealed: string;
  notes_sealed: string | null;
  rank: number | null;
};

/** A row of `visibleEntryWithSealed` as the use cases take it. */
export function toSealedEntry(row: SealedEntryRow, viewer: VaultViewer): SealedEntry {
  return {
    entry: toEntry(row),
    level: effectiveLevel(row.rank, viewer.ceiling) ?? "view",
    secretSealed: row.secret_sealed,
    notesSealed: row.notes_sealed,
  };
}

/** The entry with its sealed fields and the viewer's level, or undefined when hidden or gone. */
export async function findVisibleEntry(
  db: Db,
  viewer: VaultViewer,
  id: string,
): Promise<SealedEntry | undefined> {
  const row = await visibleEntryWithSealedQuery(db, viewer, id).executeTakeFirst();
  return row && toSealedEntry(row, viewer);
}

export interface LockedEntry {
  categoryId: string;
  name: string;
  secretSealed: string;
  notesSealed: string | null;
}

/** Locks the entry row `FOR UPDATE` until the transaction ends; undefined when there is none. */
export async function lockEntry(
  trx: Transaction<Database>,
  id: string,
): Promise<LockedEntry | undefined> {
  const row = await trx.selectFrom("vault_entries")
    .select(["category_id", "name", "secret_sealed", "notes_sealed"])
    .where("id", "=", id).forUpdate().executeTakeFirst();
  return row && {
    categoryId: row.category_id,
    name: row.name,
    secretSealed: row.secret_sealed,
    notesSealed: row.notes_sealed,
  };
}

export interface EntryValues {
  categoryId: string;
  name: string;
  username: string | null;
  url: string | null;
  secretSealed: string;
  notesSealed: string | null;
}

export async function insertEntry(
  db: Db,
  values: EntryValues & { id: string; userId: string | null; now: Date },
): Promise<VaultEntry> {
  const row = await db.insertInto("vault_entries").values({
    id: values.id,
    category_id: values.categoryId,
    name: values.name,
    username: values.username,
    url: values.url,
    secret_sealed: values.secretSealed,
    notes_sealed: values.notesSealed,
    created_by: values.userId,
    updated_by: values.userId,
    created_at: values.now,
    updated_at: values.now,
  }).returning(RETURNED_COLUMNS).executeTakeFirstOrThrow();
  return toEntry(row);
}

export async function updateEntry(
  db: Db,
  id: string,
  changes: Partial<EntryValues>,
  by: { userId: string | null; now: Date },
): Promise<VaultEntry> {
  const set = Object.fromEntries(
    Object.entries({
      category_id: changes.categoryId,
      name: changes.name,
      username: changes.username,
      url: changes.url,
      secret_sealed: changes.secretSealed,
      notes_sealed: changes.notesSealed,
    }).filter(([, value]) => value !== undefined),
  );
  const row = await db.updateTable("vault_entries")
    .set({ ...set, updated_by: by.userId, updated_at: by.now })
    .where("id", "=", id).returning(RETURNED_COLUMNS).executeTakeFirstOrThrow();
  return toEntry(row);
}

export function deleteEntry(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "vault_entries", id);
}
