/** Notes on a repair ticket (API §9), nested under their ticket's path. */
import type { AppDeps } from "../../../app/deps.ts";
import { addNote, listNotesOf, removeNote } from "../../../app/repairs/notes.ts";
import {
  createNoteBody,
  noteListQuery,
  noteParams,
  noteSchema,
} from "../../../app/repairs/repair_schemas.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import { ApiRouter } from "../../route.ts";
import { noContent } from "./_shared.ts";

export function noteRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/repair-tickets", "Repairs")
    .route({
      method: "get",
      path: "/:id/notes",
      summary: "A ticket's notes",
      description: "Paginated; `q` searches the content (case-insensitive); sortable by " +
        "createdAt (default) and visibility; filter `visibility` (internal | customer).",
      access: "repairs.view",
      params: idParams,
      query: noteListQuery,
      responses: { 200: { description: "A page of notes", schema: listResponse(noteSchema) } },
    }, async (c, { params, query }) => c.json(await listNotesOf(deps, params.id, query)))
    .route(
      {
        method: "post",
        path: "/:id/notes",
        summary: "Write a note",
        description: "`visibility` internal (default) or customer. The note carries its author " +
          "(`authorId`, `authorName`) and `ticketStatus`, the ticket's status when written.",
        access: "repairs.edit",
        params: idParams,
        body: createNoteBody,
        responses: { 201: { description: "The note", schema: noteSchema } },
      },
      async (c, { params, body, actor }) =>
        c.json(await addNote(deps, actor, params.id, body), 201),
    )
    .route({
      method: "delete",
      path: "/:id/notes/:noteId",
      summary: "Delete a note",
      description: "By its author, or by a holder of repairs.admin (anyone else → 403 " +
        "`forbidden`). A note id under another ticket's path → 404 (the note stays).",
      access: "repairs.edit",
      params: noteParams,
      responses: noContent,
    }, async (c, { params, actor }) => {
      await removeNote(deps, actor, params.id, params.noteId);
      return c.body(null, 204);
    });
}
