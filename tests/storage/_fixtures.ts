/**
 * Storage hub fixtures: one app per test file with users at each global storage permission,
 * helpers over the HTTP API (folders, grants, uploads) and a role to group users for grants.
 */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  type ApiResponse,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { suiteOf } from "../_helpers/suite.ts";

export interface StorageUsers {
  /** storage.admin: admin on every folder without grants. */
  admin: TestUser;
  /** storage.edit: how far up it gets is decided by grants. */
  editor: TestUser;
  /** storage.view: at most view, whatever the grants. */
  viewer: TestUser;
  /** No storage permission at all. */
  outsider: TestUser;
}

export async function storageUsers(t: TestApp): Promise<StorageUsers> {
  return {
    admin: await createUserWithPermissions(t, ["storage.admin"]),
    editor: await createUserWithPermissions(t, ["storage.edit"]),
    viewer: await createUserWithPermissions(t, ["storage.view"]),
    outsider: await createUserWithPermissions(t, ["files.view", "accounts.view"]),
  };
}

export const storageSuite = suiteOf(storageUsers);

export const bytes = (...values: number[]) => new Uint8Array(values);
export const PDF = new TextEncoder().encode("%PDF-1.7\n%âãÏÓ\nsheet music");
export const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72);

let counter = 0;

/** A name no other test of the file uses. */
export function uniqueName(prefix = "Folder"): string {
  return `${prefix} ${++counter}`;
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** POST /storage/folders as `user`, expecting 201; returns the folder. */
export async function folder(
  t: TestApp,
  user: TestUser,
  body: { name?: string; parentId?: string | null; isPublic?: boolean } = {},
): Promise<Json> {
  const res = await api(t.app, "POST", "/v1/storage/folders", {
    token: user.token,
    body: { name: uniqueName(), ...body },
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

/** A chain of `depth` folders (root first), made by the storage admin. */
export async function chain(t: TestApp, admin: TestUser, depth: number): Promise<Json[]> {
  const folders: Json[] = [];
  for (let i = 0; i < depth; i++) {
    folders.push(await folder(t, admin, { parentId: folders.at(-1)?.id ?? null }));
  }
  return folders;
}

/** POST /storage/folders/:id/permissions as `by`, expecting 201; returns the grant. */
export async function grant(
  t: TestApp,
  by: TestUser,
  folderId: string,
  body: { roleId?: string; userId?: string; level: string },
): Promise<Json> {
  const res = await api(t.app, "POST", `/v1/storage/folders/${folderId}/permissions`, {
    token: by.token,
    body,
  });
  assertEquals(res.status, 201, res.text);
  return res.body;
}

export function uploadForm(content: Uint8Array, name = "sheet.pdf", fields = {}): FormData {
  const data = new FormData();
  data.set("file", new Blob([content as BlobPart]), name);
  for (const [key, value] of Object.entries(fields)) data.set(key, value as string);
  return data;
}

/** POST /storage/folders/:id/files as `user`. */
export function upload(
  t: TestApp,
  user: TestUser,
  folderId: string,
  content: Uint8Array = PDF,
  name = "sheet.pdf",
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  return api(t.app, "POST", `/v1/storage/folders/${folderId}/files`, {
    token: user.token,
    body: uploadForm(content, name, fields),
  });
}

/** A role without permissions (a group for grants) holding `users`. */
export async function groupOf(t: TestApp, users: readonly TestUser[]): Promise<string> {
  const id = t.deps.ids.uuid();
  const now = t.deps.clock.now();
  await t.deps.db.insertInto("roles").values({
    id,
    slug: `group-${id}`,
    name: `Group ${id.slice(-6)}`,
    created_at: now,
    updated_at: now,
  }).execute();
  if (users.length > 0) {
    await t.deps.db.insertInto("user_roles")
      .values(users.map((u) => ({ user_id: u.id, role_id: id, created_at: now }))).execute();
  }
  return id;
}

/** GET as `user`, returning the status only. */
export async function statusOf(
  t: TestApp,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await api(t.app, method, path, { token: user.token, body });
  return res.status;
}
