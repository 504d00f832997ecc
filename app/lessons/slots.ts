/** Use cases of schedule slots: the overlap rule (checked here, enforced by the database). */
import { ConflictError, InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { minutesOfTime } from "../../domain/calendar.ts";
import { assertSlotEndsByMidnight } from "../../domain/lessons/lesson_times.ts";
import {
  assertNoSlotOverlap,
  slotOverlapError,
  type SlotTimes,
} from "../../domain/lessons/slot_overlap.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isExclusionViolation, isForeignKeyViolation } from "../db/db_errors.ts";
import { withTransaction } from "../db/transaction.ts";
import { findLocation } from "../platform/locations_repo.ts";
import { findInstructor } from "./instructors_repo.ts";
import { findLessonType } from "./lesson_types_repo.ts";
import type { RatePresets, Slot } from "./lesson_schemas.ts";
import {
  deleteSlot,
  findOverlappingSlots,
  findSlot,
  insertSlot,
  lockSlot,
  type SlotValues,
  updateSlot,
} from "./slots_repo.ts";

export interface SlotInput {
  instructorId: string;
  lessonTypeId: string;
  dayOfWeek: number;
  startTime: string;
  durationMinutes?: number;
  maxStudents?: number;
  ratePresets?: Partial<RatePresets>;
  locationId?: string | null;
  room?: string | null;
  isActive?: boolean;
}

export async function requireSlot(db: Db, id: string): Promise<Slot> {
  const slot = await findSlot(db, id);
  if (!slot) throw new NotFoundError("not_found", `Schedule slot "${id}" does not exist`);
  return slot;
}

/** "First Last" of the instructor (a refusal names them), undefined when there is none. */
async function instructorNameOf(db: Db, id: string): Promise<string | undefined> {
  const instructor = await findInstructor(db, id);
  return instructor && `${instructor.firstName} ${instructor.lastName}`;
}

/** Checks the references; the lesson type when one is given. */
async function assertReferences(
  db: Db,
  input: { instructorId?: string; lessonTypeId?: string; locationId?: string | null },
) {
  if (input.instructorId && !(await findInstructor(db, input.instructorId))) {
    throw new InvalidReferenceError(
      "instructorId",
      `Instructor "${input.instructorId}" does not exist`,
    );
  }
  if (input.locationId && !(await findLocation(db, input.locationId))) {
    throw new InvalidReferenceError("locationId", `Location "${input.locationId}" does not exist`);
  }
  if (input.lessonTypeId) {
    const type = await findLessonType(db, input.lessonTypeId);
    if (!type) {
      throw new InvalidReferenceError(
        "lessonTypeId",
        `Lesson type "${input.lessonTypeId}" does not exist`,
      );
    }
    return type;
  }
  return undefined;
}

/**
 * Writes the slot unless, active, it overlaps its instructor's active slots (but its own):
 * 409 slot_overlap naming the instructor and the other slot, also when a concurrent write's
 * overlap is caught by the exclusion constraint (the name is read before writing: the
 * transaction cannot read after the violation).
 */
async function writeSlot(trx: Db, candidate: SlotTimes, write: () => Promise<unknown>) {
  const instructorName = await instructorNameOf(trx, candidate.instructorId);
  if (candidate.isActive) {
    const others = await findOverlappingSlots(
      trx,
      candidate.instructorId,
      candidate.dayOfWeek,
      candidate.startMinute,
      candidate.endMinute,
      candidate.id,
    );
    assertNoSlotOverlap(candidate, others, instructorName);
  }
  try {
    await write();
  } catch (error) {
    if (isExclusionViolation(error, "schedule_slots_no_overlap")) {
      throw slotOverlapError(candidate, undefined, instructorName);
    }
    if (isForeignKeyViolation(error)) {
      throw new InvalidReferenceError("", "A referenced record does not exist");
    }
    throw error;
  }
}

export async function createSlot(deps: AppDeps, input: SlotInput): Promise<Slot> {
  return await withTransaction(deps.db, async (trx) => {
    const type = (await assertReferences(trx, input))!;
    const durationMinutes = input.durationMinutes ?? type.durationMinutes;
    const startMinute = minutesOfTime(input.startTime);
    assertSlotEndsByMidnight(startMinute, durationMinutes);
    const id = deps.ids.uuid();
    const candidate: SlotTimes = {
      id,
      instructorId: input.instructorId,
      dayOfWeek: input.dayOfWeek,
      startMinute,
      endMinute: startMinute + durationMinutes,
      isActive: input.isActive ?? true,
    };
    const values: SlotValues = {
      instructorId: input.instructorId,
      lessonTypeId: input.lessonTypeId,
      dayOfWeek: input.dayOfWeek,
      startMinute,
      durationMinutes,
      maxStudents: input.maxStudents ?? 1,
      ratePresets: input.ratePresets,
      locationId: input.locationId ?? null,
      room: input.room ?? null,
      isActive: candidate.isActive,
    };
    await writeSlot(trx, candidate, () => insertSlot(trx, id, values, deps.clock.now()));
    return (await findSlot(trx, id))!;
  });
}

export async function changeSlot(
  deps: AppDeps,
  id: string,
  input: Partial<SlotInput>,
): Promise<Slot> {
  return await withTransaction(deps.db, async (trx) => {
    const current = await lockSlot(trx, id);
    if (!current) throw new NotFoundError("not_found", `Schedule slot "${id}" does not exist`);
    await assertReferences(trx, input);
    const startMinute = input.startTime !== undefined
      ? minutesOfTime(input.startTime)
      : current.startMinute;
    const durationMinutes = input.durationMinutes ?? current.endMinute - current.startMinute;
    assertSlotEndsByMidnight(startMinute, durationMinutes);
    const candidate: SlotTimes = {
      id,
      instructorId: input.instructorId ?? current.instructorId,
      dayOfWeek: input.dayOfWeek ?? current.dayOfWeek,
      startMinute,
      endMinute: startMinute + durationMinutes,
      isActive: input.isActive ?? current.isActive,
    };
    const changes: Partial<SlotValues> = {
      instructorId: input.instructorId,
      lessonTypeId: input.lessonTypeId,
      dayOfWeek: input.dayOfWeek,
      startMinute: input.startTime !== undefined ? startMinute : undefined,
      durationMinutes: input.durationMinutes,
      maxStudents: input.maxStudents,
      ratePresets: input.ratePresets,
      locationId: input.locationId,
      room: input.room,
      isActive: input.isActive,
    };
    await writeSlot(trx, candidate, () => updateSlot(trx, id, changes, deps.clock.now()));
    return (await findSlot(trx, id))!;
  });
}

/** Refused with `in_use` while enrollments or sessions refer to the slot. */
export async function removeSlot(deps: AppDeps, id: string): Promise<void> {
  try {
    if (!(await deleteSlot(deps.db, id))) {
      throw new NotFoundError("not_found", `Schedule slot "${id}" does not exist`);
    }
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError(
        "in_use",
        `Schedule slot "${id}" has enrollments or sessions; deactivate it instead`,
      );
    }
    throw error;
  }
}
