/** SQL of instructors. */
import { type Selectable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../db/database.ts";
import { paginate } from "../db/pagination.ts";
import { deleteById, isoString } from "../db/rows.ts";
import { containsText, LOWERED } from "../db/contains_text.ts";
import type { ListParams } from "../schemas.ts";
import type { Instructor } from "./lesson_schemas.ts";
import type { InstructorTable } from "./lessons_tables.ts";

function toInstructor(row: Selectable<InstructorTable>): Instructor {
  return {
    id: row.id,
    userId: row.user_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    isActive: row.is_active,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

const instructorSearch = sql<
  string
>`lower(first_name || ' ' || last_name || ' ' || coalesce(email, ''))`;

export function listInstructors(
  db: Db,
  params: ListParams & { isActive?: boolean; userId?: string },
) {
  let query = db.selectFrom("instructors").selectAll();
  if (params.q) query = query.where(containsText(instructorSearch, params.q, LOWERED));
  if (params.isActive !== undefined) query = query.where("is_active", "=", params.isActive);
  if (params.userId) query = query.where("user_id", "=", params.userId);
  return paginate(query, params, {
    sortColumns: { lastName: "last_name", firstName: "first_name", createdAt: "created_at" },
    tieBreaker: "id",
    map: toInstructor,
  });
}

export async function findInstructor(db: Db, id: string): Promise<Instructor | undefined> {
  const row = await db.selectFrom("instructors").selectAll().where("id", "=", id)
    .executeTakeFirst();
  return row && toInstructor(row);
}

/**
 * The instructor's row FOR NO KEY UPDATE (the one lock strength of instructor rows):
 * serializes substitute assignments of one instructor, so two overlapping sessions cannot
 * both take them; rows referring to the instructor can still be inserted meanwhile.
 */
export async function lockInstructor(
  trx: Transaction<Database>,
  id: string,
): Promise<Instructor | undefined> {
  const row = await trx.selectFrom("instructors").selectAll().where("id", "=", id)
    .forNoKeyUpdate().executeTakeFirst();
  return row && toInstructor(row);
}

export interface InstructorValues {
  userId: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  isActive: boolean;
}

export async function insertInstructor(
  db: Db,
  values: InstructorValues & { id: string; now: Date },
): Promise<Instructor> {
  const row = await db.insertInto("instructors").values({
    id: values.id,
    user_id: values.userId,
    first_name: values.firstName,
    last_name: values.lastName,
    email: values.email,
    is_active: values.isActive,
    created_at: values.now,
    updated_at: values.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toInstructor(row);
}

export type InstructorChanges = Partial<InstructorValues>;

export async function updateInstructor(
  db: Db,
  id: string,
  changes: InstructorChanges,
  now: Date,
): Promise<Instructor | undefined> {
  const row = await db.updateTable("instructors").where("id", "=", id).set({
    ...(changes.userId !== undefined ? { user_id: changes.userId } : {}),
    ...(changes.firstName !== undefined ? { first_name: changes.firstName } : {}),
    ...(changes.lastName !== undefined ? { last_name: changes.lastName } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    updated_at: now,
  }).returningAll().executeTakeFirst();
  return row && toInstructor(row);
}

export function deleteInstructor(db: Db, id: string): Promise<boolean> {
  return deleteById(db, "instructors", id);
}

/** Ids of the instructors a user teaches as (at most one, by the unique user link). */
export async function listInstructorIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("instructors").select("id").where("user_id", "=", userId)
    .execute();
  return rows.map((r) => r.id);
}
