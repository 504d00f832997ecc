/** The member as the API returns it: the stored member, its derived minor flag and its picture. */
import { memberIsMinor } from "../../domain/accounts/members.ts";
import type { AddressJson } from "../db/column_types.ts";
import type { MemberRecord } from "./members_repo.ts";

export interface MemberJson {
  id: string;
  accountId: string;
  accountName: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  isMinor: boolean;
  email: string | null;
  phone: string | null;
  address: AddressJson | null;
  /** The member's latest file in the profile category (from the files feature). */
  profilePictureFileId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `today` is the store-local date the minor flag is judged on. */
export function memberJson(
  member: MemberRecord,
  today: string,
  profilePictureFileId: string | null,
): MemberJson {
  return {
    id: member.id,
    accountId: member.accountId,
    accountName: member.accountName,
    firstName: member.firstName,
    lastName: member.lastName,
    dateOfBirth: member.dateOfBirth,
    isMinor: memberIsMinor(member, today),
    email: member.email,
    phone: member.phone,
    address: member.address,
    profilePictureFileId,
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
  };
}
