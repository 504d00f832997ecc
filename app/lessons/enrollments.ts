/**
 * Use cases of enrollments. Capacity and double booking are decided under row locks: the
 * member row (serializes one member's enrollments: double booking) and the slot row
 * (serializes one slot's seats: capacity), always in that order.
 */
import {
  ConflictError,
  InvalidReferenceError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.ts";
import { assertCanEnroll } from "../../domain/enrollments/capacity.ts";
import {
  assertEnrollmentTransition,
  type EnrollmentStatus,
  holdsSeat,
} from "../../domain/enrollments/status_machine.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  countSeatsHeld,
  deleteEnrollment,
  deleteScheduledSessionsAfter,
  type EnrollmentChanges,
  findEnrollment,
  findLessonType,
  findSlotCore,
  insertEnrollment,
  listHeldEnrollmentsOfMember,
  lockEnrollment,
  lockMember,
  updateEnrollment,
} from "./lessons_repo.ts";
import type { BillingInterval, Enrollment } from "./lesson_schemas.ts";
import { storeToday } from "./lesson_types.ts";

export interface EnrollInput {
  memberId: string;
  slotId: string;
  startDate: string;
  endDate?: string | null;
  billingInterval: BillingInterval;
  billingUnit?: string | null;
  rate?: string | null;
}

/** Locks the slot and checks capacity and double booking for the placement. */
async function checkPlacement(
  trx: Db,
  memberId: string,
  slotId: string,
  startDate: string,
  endDate: string | null,
  excludeId?: string,
) {
  const slot = await findSlotCore(trx, slotId, true);
  if (!slot) throw new InvalidReferenceError("slotId", `Schedule slot "${slotId}" does not exist`);
  if (!slot.isActive) {
    throw new ConflictError("slot_inactive", `Schedule slot "${slotId}" is not active`);
  }
  assertCanEnroll({
    memberId,
    placement: {
      slotId,
      dayOfWeek: slot.dayOfWeek,
      startMinute: slot.startMinute,
      endMinute: slot.endMinute,
      startDate,
      endDate,
    },
    maxStudents: slot.maxStudents,
    seatsHeld: await countSeatsHeld(trx, slotId, startDate, endDate, excludeId),
    memberEnrollments: await listHeldEnrollmentsOfMember(trx, memberId, excludeId),
  });
  return slot;
}

export async function enrollMember(deps: AppDeps, input: EnrollInput): Promise<Enrollment> {
  return await withTransaction(deps.db, async (trx) => {
    if (!(await lockMember(trx, input.memberId))) {
      throw new InvalidReferenceError("memberId", `Member "${input.memberId}" does not exist`);
    }
    const endDate = input.endDate ?? null;
    const slot = await checkPlacement(trx, input.memberId, input.slotId, input.startDate, endDate);
    let rate = input.rate;
    if (rate === undefined) {
      rate = slot.ratePresets[input.billingInterval] ??
        (await findLessonType(trx, slot.lessonTypeId))?.ratePresets[input.billingInterval] ?? null;
    }
    const id = deps.ids.uuid();
    await insertEnrollment(trx, {
      id,
      memberId: input.memberId,
      slotId: input.slotId,
      startDate: input.startDate,
      endDate,
      billingInterval: input.billingInterval,
      billingUnit: input.billingUnit ?? null,
      rate,
      now: deps.clock.now(),
    });
    return (await findEnrollment(trx, id))!;
  });
}

export async function changeEnrollment(
  deps: AppDeps,
  id: string,
  changes: Omit<EnrollmentChanges, "status">,
): Promise<Enrollment> {
  return await withTransaction(deps.db, async (trx) => {
    const before = await findEnrollment(trx, id);
    if (!before) throw new NotFoundError(`Enrollment "${id}" does not exist`);
    await lockMember(trx, before.memberId);
    const current = await findEnrollment(trx, id);
    if (!current) throw new NotFoundError(`Enrollment "${id}" does not exist`);
    await lockEnrollment(trx, id);
    const startDate = changes.startDate ?? current.startDate;
    const endDate = changes.endDate !== undefined ? changes.endDate : current.endDate;
    if (endDate !== null && endDate < startDate) {
      throw new ValidationError([{
        path: "endDate",
        message: "endDate must not be before startDate",
      }]);
    }
    const placementChanged = (changes.slotId !== undefined && changes.slotId !== current.slotId) ||
      startDate !== current.startDate || endDate !== current.endDate;
    if (placementChanged && holdsSeat(current.status)) {
      await checkPlacement(
        trx,
        current.memberId,
        changes.slotId ?? current.slotId,
        startDate,
        endDate,
        id,
      );
    } else if (changes.slotId !== undefined && !(await findSlotCore(trx, changes.slotId))) {
      throw new InvalidReferenceError("slotId", `Schedule slot "${changes.slotId}" does not exist`);
    }
    await updateEnrollment(trx, id, changes, deps.clock.now());
    return (await findEnrollment(trx, id))!;
  });
}

/**
 * Moves an enrollment's status. Once it is no longer active, its sessions still
 * `scheduled` after today are removed (generation recreates them if it resumes).
 */
export async function setEnrollmentStatus(
  deps: AppDeps,
  id: string,
  status: EnrollmentStatus,
): Promise<Enrollment> {
  return await withTransaction(deps.db, async (trx) => {
    const row = await lockEnrollment(trx, id);
    if (!row) throw new NotFoundError(`Enrollment "${id}" does not exist`);
    assertEnrollmentTransition(row.status as EnrollmentStatus, status);
    await updateEnrollment(trx, id, { status }, deps.clock.now());
    if (status !== "active") {
      await deleteScheduledSessionsAfter(trx, id, await storeToday(deps, trx));
    }
    return (await findEnrollment(trx, id))!;
  });
}

export async function removeEnrollment(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteEnrollment(deps.db, id))) {
    throw new NotFoundError(`Enrollment "${id}" does not exist`);
  }
}
