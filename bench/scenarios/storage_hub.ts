/**
 * The storage hub (issue 19): a tree of 10,000 folders 8 levels deep (3 roots, each folder
 * with 3 subfolders down to level 8: 9,840 folders, plus 160 in one wide folder) and 50 grants
 * (to the caller's role, to the caller, and to 8 other roles and users as noise).
 *  - `GET /v1/storage/folders?parentId=` of a level-7 folder: its 3 children with the caller's
 *    level on each, computed in one query over the folder's chain of 7 ancestors;
 *  - `GET /v1/storage/files/:id` of a file in a level-8 folder: the access check over its
 *    chain of 8 folders.
 * Both as a storage.edit holder whose level comes from grants. Target: p99 < 10 ms at 10
 * concurrent clients. Run them alone with `BENCH_ONLY=storage deno task bench`.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../../app/db/database.ts";
import type { Scenario, SeedContext } from "./_scenario.ts";

const DEPTH = 8;
const FANOUT = 3;
const WIDE_EXTRA = 160;
/** Requests cycle over this many different folders and files. */
const TARGETS = 500;

interface State {
  token: string;
  /** Level-7 folders (each with 3 children). */
  parents: string[];
  /** Files in level-8 folders. */
  files: string[];
}

/** The tree is seeded once per bench database, for both scenarios. */
const seeded = new WeakMap<Kysely<Database>, Promise<State>>();

/** A valid UUID (version 4 and variant bits set) made from a text, the same every run. */
const uuidOf = (text: RawBuilder<unknown>) =>
  sql`overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

const folderId = (level: number, index: number | RawBuilder<unknown>) =>
  uuidOf(sql`'bench-folder-' || ${level}::int || '-' || ${index}`);

async function seedTree(ctx: SeedContext): Promise<State> {
  const { db, createUser } = ctx;
  await sql`
    INSERT INTO storage_folders (id, parent_id, name, created_at, updated_at)
    SELECT ${folderId(1, sql`i`)}, NULL, 'Bench root ' || i, now(), now()
    FROM generate_series(1, ${FANOUT}) AS i`.execute(db);
  for (let level = 2; level <= DEPTH; level++) {
    await sql`
      INSERT INTO storage_folders (id, parent_id, name, created_at, updated_at)
      SELECT ${folderId(level, sql`i`)}, ${folderId(level - 1, sql`(i - 1) / ${FANOUT} + 1`)},
        'Folder ' || ${level}::int || '.' || i, now(), now()
      FROM generate_series(1, ${FANOUT ** level}) AS i`.execute(db);
  }
  await sql`
    INSERT INTO storage_folders (id, parent_id, name, created_at, updated_at)
    SELECT ${uuidOf(sql`'bench-wide-' || i`)}, ${folderId(1, 1)}, 'Wide ' || i, now(), now()
    FROM generate_series(1, ${WIDE_EXTRA}) AS i`.execute(db);

  const caller = await createUser(["storage.edit"]);
  const callerRole = crypto.randomUUID();
  const now = new Date();
  await db.insertInto("roles").values({
    id: callerRole,
    slug: `bench-storage-${callerRole}`,
    name: "Bench storage readers",
  }).execute();
  await db.insertInto("user_roles").values({ user_id: caller.id, role_id: callerRole }).execute();
  const others: { roleId?: string; userId?: string }[] = [];
  for (let n = 0; n < 4; n++) {
    const other = await createUser(["storage.view"]);
    const roleId = crypto.randomUUID();
    await db.insertInto("roles").values({ id: roleId, slug: `bench-sr-${roleId}`, name: `R${n}` })
      .execute();
    others.push({ roleId }, { userId: other.id });
  }
  // 50 grants: view to the caller's role on the 3 roots, 12 role and 10 user grants to the
  // caller further down (levels 4 and 5), 25 to the others spread over the tree.
  const grants: { folder: [number, number]; roleId?: string; userId?: string; level: string }[] =
    [];
  for (let i = 1; i <= FANOUT; i++) {
    grants.push({ folder: [1, i], roleId: callerRole, level: "view" });
  }
  for (let i = 1; i <= 12; i++) {
    grants.push({ folder: [4, i * 5], roleId: callerRole, level: "edit" });
  }
  for (let i = 1; i <= 10; i++) {
    grants.push({ folder: [5, i * 13], userId: caller.id, level: "admin" });
  }
  for (let i = 0; i < 25; i++) {
    grants.push({
      folder: [2 + (i % (DEPTH - 1)), i + 1],
      ...others[i % others.length]!,
      level: "view",
    });
  }
  for (const g of grants) {
    const [level, n] = g.folder;
    const index = ((n - 1) % FANOUT ** level) + 1;
    await sql`
      INSERT INTO storage_folder_permissions (id, folder_id, role_id, user_id, level, created_at)
      VALUES (${crypto.randomUUID()}, ${folderId(level, index)}, ${g.roleId ?? null},
        ${g.userId ?? null}, ${g.level}, ${now})
      ON CONFLICT DO NOTHING`.execute(db);
  }
  const { rows: counted } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM storage_folder_permissions`.execute(db);
  if (counted[0]!.n !== 50) throw new Error(`Expected 50 grants, seeded ${counted[0]!.n}`);

  const step = Math.floor(FANOUT ** (DEPTH - 1) / TARGETS);
  const parents: string[] = [];
  const files: string[] = [];
  for (let t = 0; t < TARGETS; t++) {
    const parentIndex = 1 + t * step;
    const { rows } = await sql<{ parent: string; leaf: string }>`
      SELECT ${folderId(DEPTH - 1, parentIndex)}::text AS parent,
        ${folderId(DEPTH, (parentIndex - 1) * FANOUT + 1)}::text AS leaf`.execute(db);
    parents.push(rows[0]!.parent);
    const fileId = crypto.randomUUID();
    await db.insertInto("storage_files").values({
      id: fileId,
      folder_id: rows[0]!.leaf,
      name: `Manual ${t}.pdf`,
      content_type: "application/pdf",
      size: 1024,
      path: `storage/${fileId}.pdf`,
      created_at: now,
      updated_at: now,
    }).execute();
    files.push(fileId);
  }
  return { token: caller.token, parents, files };
}

function seedOnce(ctx: SeedContext): Promise<State> {
  let state = seeded.get(ctx.db);
  if (!state) {
    state = seedTree(ctx);
    seeded.set(ctx.db, state);
  }
  return state;
}

export const storageChildren: Scenario<State> = {
  name: "GET /v1/storage/folders?parentId= (level 7 of 10,000 folders, 50 grants)",
  seed: seedOnce,
  request(i, { token, parents }) {
    return {
      path: `/v1/storage/folders?parentId=${parents[i % parents.length]}`,
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  targets: { p99Ms: 10 },
};

export const storageDeepFile: Scenario<State> = {
  name: "GET /v1/storage/files/:id (a file 8 folders deep, 50 grants)",
  seed: seedOnce,
  request(i, { token, files }) {
    return {
      path: `/v1/storage/files/${files[i % files.length]}`,
      headers: { Authorization: `Bearer ${token}` },
    };
  },
  targets: { p99Ms: 10 },
};
