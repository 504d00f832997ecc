/** The member as the API returns it: the stored member, its derived minor flag and its picture. */
import { memberIsMinor } from "../../domain/accounts/members.ts";
import type { MemberRecord } from "./members_repo.ts";

/**
 * The stored member with `isMinor` derived from the date of birth (else the manual flag) and
 * its latest file in the profile category (from the files feature).
 */
export type MemberJson = MemberRecord & { profilePictureFileId: string | null };

/** `today` is the store-local date the minor flag is judged on. */
export function memberJson(
  member: MemberRecord,
  today: string,
  profilePictureFileId: string | null,
): MemberJson {
  return { ...member, isMinor: memberIsMinor(member, today), profilePictureFileId };
}
