/**
 * After rows were inserted in bulk (seeds, the bench, plan tests): every copy of names kept for
 * a search written as the use cases keep them. Accounts and members each hold the other's names
 * (`accounts.member_search`, `members.account_name`), rentals and enrollments the names of
 * their account and member (`search`, app/accounts/name_copies.ts).
 */
import { refreshEveryMemberSearch } from "./accounts/accounts_repo.ts";
import { setEveryAccountNameOfMembers } from "./accounts/members_repo.ts";
import type { Db } from "./db/database.ts";
import { refreshEveryEnrollmentSearch } from "./lessons/enrollments_repo.ts";
import { refreshEveryRentalSearch } from "./rentals/rentals_repo.ts";

export async function refreshEverySearchCopy(db: Db): Promise<void> {
  await refreshEveryMemberSearch(db);
  await setEveryAccountNameOfMembers(db);
  await refreshEveryRentalSearch(db);
  await refreshEveryEnrollmentSearch(db);
}
