/**
 * Files test fixtures: one app per test file with the users every file test needs and a
 * member to attach files to, sample contents of each accepted type, and upload helpers.
 */
import { assertEquals } from "../_helpers/assert.ts";
import {
  api,
  type ApiResponse,
  createUserWithPermissions,
  type TestApp,
  type TestUser,
} from "../_helpers/test_app.ts";
import { withTestApp } from "../_helpers/suite.ts";

export interface FilesContext {
  t: TestApp;
  uploader: TestUser;
  viewer: TestUser;
  deleter: TestUser;
  settings: TestUser;
  accounts: TestUser;
  memberId: string;
  /** A new account's primary member (created by `accounts`). */
  newMember: () => Promise<string>;
  /** POST /files as `uploader`, or with `options.token`. */
  uploadTo: (
    content: Uint8Array,
    fields: Record<string, string>,
    options?: UploadOptions & { token?: string },
  ) => Promise<ApiResponse>;
}

export interface UploadOptions {
  type?: string;
  name?: string;
}

/**
 * Registers the file's app (own database) and hands `ready` the users and a member before the
 * first test. The app's clock runs `offsetMs()` ahead of the real one.
 */
export function withFilesApp(
  ready: (context: FilesContext) => void,
  offsetMs: () => number = () => 0,
): void {
  withTestApp(async (t) => {
    const accounts = await createUserWithPermissions(t, ["accounts.admin"]);
    const uploader = await createUserWithPermissions(t, ["files.upload"]);
    ready({
      t,
      uploader,
      viewer: await createUserWithPermissions(t, ["files.view"]),
      deleter: await createUserWithPermissions(t, ["files.delete", "files.view"]),
      settings: await createUserWithPermissions(t, ["settings.admin"]),
      accounts,
      memberId: await newMemberAs(t, accounts),
      newMember: () => newMemberAs(t, accounts),
      uploadTo: (content, fields, options = {}) =>
        uploadAs(t, options.token ?? uploader.token, content, fields, options),
    });
  }, { clock: { now: () => new Date(Date.now() + offsetMs()) } });
}

/** A new account's primary member (created by `accounts`), to attach files to. */
export async function newMemberAs(t: TestApp, accounts: TestUser): Promise<string> {
  const res = await api(t.app, "POST", "/v1/accounts", {
    token: accounts.token,
    body: { primaryContact: { firstName: "File", lastName: "Owner" } },
  });
  assertEquals(res.status, 201);
  return res.body.primaryMemberId;
}

export const bytes = (...values: number[]) => new Uint8Array(values);
export const text = (value: string) => new TextEncoder().encode(value);
export const PNG = bytes(
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  73,
  72,
  68,
  82,
);
export const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70);
export const GIF = text("GIF89a\x01\x00\x01\x00");
export const WEBP = text("RIFF\x1a\x00\x00\x00WEBPVP8 ");
export const PDF = text("%PDF-1.7\n%âãÏÓ\n");

export function form(
  content: Uint8Array,
  fields: Record<string, string>,
  options: UploadOptions = {},
): FormData {
  const data = new FormData();
  data.set(
    "file",
    new Blob([content as BlobPart], { type: options.type ?? "" }),
    options.name ?? "x.bin",
  );
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

/** POST /files with `token`. */
export function uploadAs(
  t: TestApp,
  token: string,
  content: Uint8Array,
  fields: Record<string, string>,
  options: UploadOptions = {},
): Promise<ApiResponse> {
  return api(t.app, "POST", "/v1/files", { token, body: form(content, fields, options) });
}

/** Path and query of an absolute URL, to call the app with. */
export function local(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
