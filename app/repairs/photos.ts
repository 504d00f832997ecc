/**
 * Photos of a ticket by phase (API §9): files of entityType `repair_ticket` whose category
 * is the phase (intake, in_progress, completed), stored through the files module with its
 * whitelist and limits (`upload.*`). A ticket that does not exist → 404.
 */
import type { Actor } from "../actor.ts";
import type { AppDeps } from "../deps.ts";
import { type FileJson, fileJson } from "../files/file_json.ts";
import { uploadFile } from "../files/files.ts";
import { listFilesOf } from "../files/files_repo.ts";
import type { ListParams } from "../schemas.ts";
import { requireTicket } from "./ticket_lookup.ts";

export type PhotoPhase = "intake" | "in_progress" | "completed";

export async function listPhotos(
  deps: AppDeps,
  ticketId: string,
  params: ListParams & { phase?: PhotoPhase },
) {
  await requireTicket(deps.db, ticketId);
  const page = await listFilesOf(deps.db, "repair_ticket", ticketId, {
    ...params,
    category: params.phase,
  });
  return {
    data: await Promise.all(page.data.map((file) => fileJson(deps, file))),
    pagination: page.pagination,
  };
}

export async function uploadPhoto(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  phase: PhotoPhase,
  content: Uint8Array,
): Promise<FileJson> {
  await requireTicket(deps.db, ticketId);
  return await uploadFile(deps, actor, {
    entityType: "repair_ticket",
    entityId: ticketId,
    category: phase,
    content,
  });
}
