/**
 * Notes on a ticket (API §9): internal or customer visibility, the author, and the ticket's
 * status when written (read under the ticket's lock, so a concurrent status move is either
 * before or after the note). Deleting one needs its author or repairs.admin. A note under
 * another ticket's path → 404, left alone.
 */
import { ForbiddenError, NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../actor.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import type { ListParams } from "../schemas.ts";
import { deleteNoteRow, findNote, insertNote, listNotes } from "./notes_repo.ts";
import type { NoteVisibility } from "./repairs_tables.ts";
import type { NoteJson } from "./repair_schemas.ts";
import { requireLockedTicket, requireTicket } from "./ticket_lookup.ts";

function noteNotFound(ticketId: string, id: string): NotFoundError {
  return new NotFoundError("not_found", `Ticket "${ticketId}" has no note "${id}"`);
}

export async function listNotesOf(
  deps: Pick<AppDeps, "db">,
  ticketId: string,
  params: ListParams & { visibility?: NoteVisibility },
) {
  await requireTicket(deps.db, ticketId);
  return await listNotes(deps.db, ticketId, params);
}

export async function addNote(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  input: { content: string; visibility: NoteVisibility },
): Promise<NoteJson> {
  return await withTransaction(deps.db, async (trx) => {
    const ticket = await requireLockedTicket(trx, ticketId);
    const id = deps.ids.uuid();
    await insertNote(trx, {
      id,
      ticketId,
      content: input.content,
      visibility: input.visibility,
      authorId: actor.userId,
      ticketStatus: ticket.status,
      now: deps.clock.now(),
    });
    return (await findNote(trx, ticketId, id))!;
  });
}

export async function removeNote(
  deps: AppDeps,
  actor: Actor,
  ticketId: string,
  id: string,
): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    await requireTicket(trx, ticketId);
    const note = await findNote(trx, ticketId, id);
    if (!note) throw noteNotFound(ticketId, id);
    if (note.authorId !== actor.userId && !actor.permissions.has("repairs.admin")) {
      throw new ForbiddenError(
        "forbidden",
        "Only the note's author or a holder of repairs.admin may delete it",
      );
    }
    if (!(await deleteNoteRow(trx, ticketId, id))) throw noteNotFound(ticketId, id);
  });
}
