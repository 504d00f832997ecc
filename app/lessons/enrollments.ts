/**
 * Use cases of enrollments. Capacity and double booking are decided under row locks: the
 * member row (accounts' `lockMember`: serializes one member's enrollments, double booking)
 * and the slot row (`lockSlot`: serializes one slot's seats, capacity), always in that order.
 */
import type { Transaction } from "kysely";
import { InvalidReferenceError, NotFoundError } from "../../domain/errors.ts";
import { assertCanEnroll, placementCheckNeeded } from "../../domain/enrollments/capacity.ts";
import {
  assertEnrollmentTransition,
  type EnrollmentStatus,
} from "../../domain/enrollments/status_machine.ts";
import {
  assertEnrollmentDates,
  type BillingInterval,
  defaultEnrollmentRate,
} from "../../domain/enrollments/terms.ts";
import { lockMember } from "../accounts/members_repo.ts";
import type { NameCopies } from "../accounts/name_copies.ts";
import type { AppDeps } from "../deps.ts";
import type { Database, Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import {
  countSeatsHeld,
  deleteEnrollment,
  type EnrollmentChanges,
  findEnrollment,
  insertEnrollment,
  listHeldEnrollmentsOfMember,
  lockEnrollment,
  refreshEnrollmentSearch,
  updateEnrollment,
} from "./enrollments_repo.ts";
import { findLessonType } from "./lesson_types_repo.ts";
import type { Enrollment } from "./lesson_schemas.ts";
import { deleteScheduledSessionsAfter } from "./sessions_repo.ts";
import { findSlotCore, findSlotNames, lockSlot } from "./slots_repo.ts";
import { storeToday } from "../platform/store.ts";

/**
 * The enrollments' copies of member names (app/accounts/name_copies.ts); `enrollMember` locks
 * the member before it copies the name.
 */
export const enrollmentNameCopies: NameCopies = {
  accountsRenamed: () => Promise.resolve(),
  membersRenamed: (trx, memberIds) => refreshEnrollmentSearch(trx, memberIds),
};

function notFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Enrollment "${id}" does not exist`);
}

export async function requireEnrollment(db: Db, id: string): Promise<Enrollment> {
  const enrollment = await findEnrollment(db, id);
  if (!enrollment) throw notFound(id);
  return enrollment;
}

export interface EnrollInput {
  memberId: string;
  slotId: string;
  startDate: string;
  endDate?: string | null;
  billingInterval: BillingInterval;
  billingUnit?: string | null;
  rate?: string | null;
}

/**
 * Locks the slot and checks capacity and double booking for the placement (a refusal names the
 * member and the slots).
 */
async function checkPlacement(
  trx: Transaction<Database>,
  member: { id: string; name: string },
  slotId: string,
  startDate: string,
  endDate: string | null,
  excludeId?: string,
) {
  const slot = await lockSlot(trx, slotId);
  if (!slot) throw new InvalidReferenceError("slotId", `Schedule slot "${slotId}" does not exist`);
  assertCanEnroll({
    memberId: member.id,
    memberName: member.name,
    placement: {
      slotId,
      dayOfWeek: slot.dayOfWeek,
      startMinute: slot.startMinute,
      endMinute: slot.endMinute,
      startDate,
      endDate,
      names: await findSlotNames(trx, slotId),
    },
    slotIsActive: slot.isActive,
    maxStudents: slot.maxStudents,
    seatsHeld: await countSeatsHeld(trx, slotId, startDate, endDate, excludeId),
    memberEnrollments: await listHeldEnrollmentsOfMember(trx, member.id, excludeId),
  });
  return slot;
}

export async function enrollMember(deps: AppDeps, input: EnrollInput): Promise<Enrollment> {
  return await withTransaction(deps.db, async (trx) => {
    const member = await lockMember(trx, input.memberId);
    if (!member) {
      throw new InvalidReferenceError("memberId", `Member "${input.memberId}" does not exist`);
    }
    const endDate = input.endDate ?? null;
    assertEnrollmentDates(input.startDate, endDate);
    const slot = await checkPlacement(
      trx,
      { id: member.id, name: `${member.firstName} ${member.lastName}` },
      input.slotId,
      input.startDate,
      endDate,
    );
    let rate = input.rate;
    if (rate === undefined) {
      const slotRate = slot.ratePresets[input.billingInterval];
      const typeRates = slotRate === null
        ? (await findLessonType(trx, slot.lessonTypeId))?.ratePresets
        : undefined;
      rate = defaultEnrollmentRate(input.billingInterval, slot.ratePresets, typeRates);
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

/** Moving to another slot or dates re-checks capacity and double booking. */
export async function changeEnrollment(
  deps: AppDeps,
  id: string,
  changes: Omit<EnrollmentChanges, "status">,
): Promise<Enrollment> {
  return await withTransaction(deps.db, async (trx) => {
    const before = await requireEnrollment(trx, id);
    await lockMember(trx, before.memberId);
    const current = await requireEnrollment(trx, id);
    await lockEnrollment(trx, id);
    const next = {
      slotId: changes.slotId ?? current.slotId,
      startDate: changes.startDate ?? current.startDate,
      endDate: changes.endDate !== undefined ? changes.endDate : current.endDate,
    };
    assertEnrollmentDates(next.startDate, next.endDate);
    if (placementCheckNeeded(current, next)) {
      await checkPlacement(
        trx,
        { id: current.memberId, name: current.memberName },
        next.slotId,
        next.startDate,
        next.endDate,
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
    if (!row) throw notFound(id);
    assertEnrollmentTransition(row.status, status);
    await updateEnrollment(trx, id, { status }, deps.clock.now());
    if (status !== "active") {
      await deleteScheduledSessionsAfter(trx, id, await storeToday(deps, trx));
    }
    return (await findEnrollment(trx, id))!;
  });
}

/** Deletes the enrollment with its sessions and plans. */
export async function removeEnrollment(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteEnrollment(deps.db, id))) throw notFound(id);
}
