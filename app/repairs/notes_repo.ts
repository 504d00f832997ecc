/** SQL of repair notes (with their author's name). */
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { isoString, touchedAny } from "../db/rows.ts";
import { containsText } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { NoteVisibility } from "./repairs_tables.ts";
import type { NoteJson } from "./repair_schemas.ts";
import type { RepairStatus } from "../../domain/repairs/status_machine.ts";

function noteViews(db: Db) {
  return db.selectFrom("repair_notes as n")
    .leftJoin("users as u", "u.id", "n.author_id")
    .select([
      "n.id",
      "n.ticket_id",
      "n.content",
      "n.visibility",
      "n.author_id",
      "n.ticket_status",
      "n.created_at",
      sql<string | null>`u.first_name || ' ' || u.last_name`.as("author_name"),
    ]);
}

type NoteRow = Awaited<ReturnType<ReturnType<typeof noteViews>["executeTakeFirstOrThrow"]>>;

function toNote(row: NoteRow): NoteJson {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    content: row.content,
    visibility: row.visibility,
    authorId: row.author_id,
    authorName: row.author_name,
    ticketStatus: row.ticket_status,
    createdAt: isoString(row.created_at),
  };
}

export function listNotes(
  db: Db,
  ticketId: string,
  params: ListParams & { visibility?: NoteVisibility },
) {
  let query = noteViews(db).where("n.ticket_id", "=", ticketId);
  // One ticket's notes: the ticket index narrows, no search index needed.
  if (params.q) query = query.where(containsText("n.content", params.q));
  if (params.visibility) query = query.where("n.visibility", "=", params.visibility);
  return paginate(query, params, {
    sortColumns: { createdAt: "n.created_at", visibility: "n.visibility" },
    tieBreaker: "n.id",
    map: toNote,
  });
}

/** The note, when it belongs to that ticket. */
export async function findNote(
  db: Db,
  ticketId: string,
  id: string,
): Promise<NoteJson | undefined> {
  const row = await noteViews(db).where("n.id", "=", id).where("n.ticket_id", "=", ticketId)
    .executeTakeFirst();
  return row && toNote(row);
}

export async function insertNote(db: Db, v: {
  id: string;
  ticketId: string;
  content: string;
  visibility: NoteVisibility;
  authorId: string | null;
  ticketStatus: RepairStatus;
  now: Date;
}): Promise<void> {
  await db.insertInto("repair_notes").values({
    id: v.id,
    ticket_id: v.ticketId,
    content: v.content,
    visibility: v.visibility,
    author_id: v.authorId,
    ticket_status: v.ticketStatus,
    created_at: v.now,
  }).execute();
}

export async function deleteNoteRow(db: Db, ticketId: string, id: string): Promise<boolean> {
  return touchedAny(
    await db.deleteFrom("repair_notes").where("id", "=", id).where("ticket_id", "=", ticketId)
      .executeTakeFirst(),
  );
}
