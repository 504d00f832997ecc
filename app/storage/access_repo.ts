/**
 * The storage hub's access queries: each gathers, in ONE statement, what the pure rule
 * (domain/storage/levels.ts) needs about a folder's chain for one caller — the folder and its
 * ancestors by a recursive CTE, whether any of them is public, and the levels of the grants on
 * them to the caller or the caller's current roles — never a query per ancestor. Listing a
 * folder's children gathers each child's own grants in the same statement.
 *
 * The chain CTE uses UNION (not UNION ALL), so it ends even on a cycle the tree lock should
 * make impossible.
 */
import { CompiledQuery, sql } from "kysely";
import type { ChainFacts } from "../../domain/storage/levels.ts";
import type { Db } from "../db/database.ts";
import { EXACT_TOTAL_CAP } from "../db/pagination.ts";
import { isoString } from "../db/rows.ts";
import { containsTextSql, LOWERED } from "../db/contains_text.ts";
import type { FolderListParams } from "./storage_schemas.ts";

export interface FolderRecord {
  id: string;
  parentId: string | null;
  name: string;
  isPublic: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

interface FolderRow {
  id: string;
  parent_id: string | null;
  name: string;
  is_public: boolean;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toFolder(row: FolderRow): FolderRecord {
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    isPublic: row.is_public,
    createdBy: row.created_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** A folder with its chain's facts for one caller, and the ids of its chain (itself first). */
export interface FolderAccess {
  folder: FolderRecord;
  facts: ChainFacts;
  chainIds: string[];
}

/**
 * `chain (id, parent_id, is_public)`: the folder `start` names and all its ancestors. The
 * statements are plain text with positional parameters (`$2` is always the caller's user id),
 * built from a few fixed pieces: no query builder work per request on these hot paths.
 */
function chainFrom(start: string): string {
  return `chain (id, parent_id, is_public, access_generation) AS (
      SELECT id, parent_id, is_public, access_generation FROM storage_folders WHERE id = ${start}
      UNION
      SELECT f.id, f.parent_id, f.is_public, f.access_generation
        FROM chain c JOIN storage_folders f ON f.id = c.parent_id
    )`;
}

/**
 * The value that marks a narrowing of access on a folder or file row (`access_generation`): a
 * folder made private, moved or losing a grant; a file moved. It comes from one sequence shared
 * by both tables, so it is larger than every generation before it, and the highest generation
 * of a file and its folder chain — what a signed URL carries — changes with any such change
 * up the chain (see `findFileAccess`).
 */
export const ACCESS_CHANGE = sql<number>`nextval('storage_access_seq')`;

/** The grants (alias g) to the caller ($2) or one of the caller's current roles. */
const TO_CALLER = `(g.user_id = $2
    OR g.role_id IN (SELECT r.role_id FROM user_roles r WHERE r.user_id = $2))`;

/** Levels of the caller's grants on the folders `folderCondition` selects (alias g). */
function callerLevels(folderCondition: string): string {
  return `ARRAY(SELECT g.level FROM storage_folder_permissions g
      WHERE ${folderCondition} AND ${TO_CALLER})`;
}

const CHAIN_FACTS = `coalesce((SELECT bool_or(c.is_public) FROM chain c), false) AS public_in_chain,
    ARRAY(SELECT c.id::text FROM chain c) AS chain_ids,
    ${callerLevels("g.folder_id IN (SELECT c.id FROM chain c)")} AS grant_levels`;

interface ChainFactsRow {
  public_in_chain: boolean;
  chain_ids: string[];
  grant_levels: string[];
}

function factsOf(row: ChainFactsRow): ChainFacts {
  return { grantLevels: row.grant_levels, publicInChain: row.public_in_chain };
}

async function run<R>(db: Db, text: string, parameters: readonly unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
}

const FOLDER_ACCESS_SQL = `
    WITH RECURSIVE ${chainFrom("$1")}
    SELECT f.id, f.parent_id, f.name, f.is_public, f.created_by, f.created_at, f.updated_at,
      ${CHAIN_FACTS}
    FROM storage_folders f WHERE f.id = $1`;

/** The folder and its chain's facts for the caller; undefined when there is no such folder. */
export async function findFolderAccess(
  db: Db,
  folderId: string,
  userId: string | null,
): Promise<FolderAccess | undefined> {
  const [row] = await run<FolderRow & ChainFactsRow>(db, FOLDER_ACCESS_SQL, [folderId, userId]);
  return row && { folder: toFolder(row), facts: factsOf(row), chainIds: row.chain_ids };
}

export interface StorageFileRecord {
  id: string;
  folderId: string;
  name: string;
  contentType: string;
  size: number;
  path: string;
  createdAt: string;
  createdBy: string | null;
}

export interface StorageFileRow {
  id: string;
  folder_id: string;
  name: string;
  content_type: string;
  size: number | string;
  path: string;
  created_at: Date;
  created_by: string | null;
}

export function toStorageFile(row: StorageFileRow): StorageFileRecord {
  return {
    id: row.id,
    folderId: row.folder_id,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    path: row.path,
    createdAt: isoString(row.created_at),
    createdBy: row.created_by,
  };
}

const FILE_ACCESS_SQL = `
    WITH RECURSIVE ${chainFrom("(SELECT folder_id FROM storage_files WHERE id = $1)")}
    SELECT s.id, s.folder_id, s.name, s.content_type, s.size, s.path, s.created_at, s.created_by,
      greatest(s.access_generation, (SELECT max(c.access_generation) FROM chain c))
        AS link_generation,
      ${CHAIN_FACTS}
    FROM storage_files s WHERE s.id = $1`;

export interface FileAccess {
  file: StorageFileRecord;
  facts: ChainFacts;
  /** The highest access generation of the file and its folder chain (signed URLs carry it). */
  linkGeneration: number;
}

/**
 * A stored file, its folder's chain facts for the caller (none for a null caller) and its link
 * generation, read in one statement (one snapshot); undefined when there is no such file.
 */
export async function findFileAccess(
  db: Db,
  fileId: string,
  userId: string | null,
): Promise<FileAccess | undefined> {
  const [row] = await run<StorageFileRow & ChainFactsRow & { link_generation: number | string }>(
    db,
    FILE_ACCESS_SQL,
    [fileId, userId],
  );
  return row && {
    file: toStorageFile(row),
    facts: factsOf(row),
    linkGeneration: Number(row.link_generation),
  };
}

/** A child folder on a page, with the levels of the caller's grants on the child itself. */
export interface ChildFolder {
  folder: FolderRecord;
  ownGrantLevels: string[];
}

export interface ChildrenPage {
  /** Whether the parent exists (always true for the root). */
  parentFound: boolean;
  /** The parent's chain facts (nothing for the root). */
  parent: ChainFacts;
  children: ChildFolder[];
  /** Counted up to one past the cap (pagination.ts); a folder rarely has that many. */
  total: number;
  totalExact: boolean;
}

const CHILD_SORT: Record<FolderListParams["sort"], string> = {
  name: "lower(m.name)",
  createdAt: "m.created_at",
};

/** Where the children statement binds the name's patterns when there is a `q`. */
const NAME_PATTERNS_FROM = 5;

/**
 * The children statement of one shape: $1 the parent (null for the root), $2 the caller,
 * $3/$4 limit and offset, then the name's patterns when there is a `q` (`nameMatch`).
 */
function childrenSql(
  root: boolean,
  params: FolderListParams,
  everything: boolean,
  nameMatch: string | undefined,
): string {
  const direction = params.order === "desc" ? "DESC" : "ASC";
  const order = `${CHILD_SORT[params.sort]} ${direction}, m.id ${direction}`;
  const filters = [root ? "f.parent_id IS NULL" : "f.parent_id = $1"];
  if (nameMatch) filters.push(nameMatch);
  if (root && !everything) {
    filters.push(`(f.is_public OR EXISTS (SELECT 1 FROM storage_folder_permissions g
      WHERE g.folder_id = f.id AND ${TO_CALLER}))`);
  }
  return `
    WITH RECURSIVE ${chainFrom("$1")},
    matching AS NOT MATERIALIZED (
      SELECT f.id, f.parent_id, f.name, f.is_public, f.created_by, f.created_at, f.updated_at
      FROM storage_folders f WHERE ${filters.join(" AND ")}
    ),
    page AS (
      SELECT m.*, ${callerLevels("g.folder_id = m.id")} AS own_levels,
        row_number() OVER (ORDER BY ${order}) AS rn
      FROM matching m ORDER BY ${order}
      LIMIT $3 OFFSET $4
    )
    SELECT EXISTS (SELECT 1 FROM chain) AS parent_found, ${CHAIN_FACTS},
      (SELECT count(*) FROM (SELECT 1 FROM matching LIMIT ${EXACT_TOTAL_CAP + 1}) c) AS total,
      page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
    ORDER BY page.rn`;
}

/**
 * One page of the subfolders of `parentId` (root folders for null), the parent's chain facts
 * and each child's own grants, in one statement. Children of a folder inherit its level, so
 * they are all visible when it is; root folders are filtered here to those the caller can see
 * (`everything`: a storage.admin; otherwise public ones and those with a grant to the caller),
 * so pages and totals count visible folders only.
 */
export async function listChildFolders(
  db: Db,
  userId: string | null,
  parentId: string | null,
  params: FolderListParams,
  everything: boolean,
): Promise<ChildrenPage> {
  const parameters: unknown[] = [parentId, userId, params.limit, (params.page - 1) * params.limit];
  const name = params.q
    ? containsTextSql("lower(f.name)", params.q, NAME_PATTERNS_FROM, LOWERED)
    : undefined;
  if (name) parameters.push(...name.values);
  const rows = await run<
    ChainFactsRow & Partial<FolderRow> & {
      parent_found: boolean;
      total: number | string;
      own_levels: string[] | null;
    }
  >(db, childrenSql(parentId === null, params, everything, name?.sql), parameters);
  const first = rows[0]!;
  return {
    parentFound: parentId === null || first.parent_found,
    parent: factsOf(first),
    total: Number(first.total),
    totalExact: Number(first.total) <= EXACT_TOTAL_CAP,
    children: rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => ({
      folder: toFolder(row as FolderRow),
      ownGrantLevels: row.own_levels ?? [],
    })),
  };
}
