/** A file as the API returns it: its metadata and a signed URL that serves it (15 minutes). */
import type { AppDeps } from "../deps.ts";
import type { FileRecord } from "./files_repo.ts";
import { signFileUrl } from "./signed_urls.ts";

export type FileJson = FileRecord & { url: string };

export async function fileJson(
  deps: Pick<AppDeps, "config" | "clock">,
  file: FileRecord,
): Promise<FileJson> {
  const { url } = await signFileUrl(deps.config, file, deps.clock.now());
  return { ...file, url };
}
