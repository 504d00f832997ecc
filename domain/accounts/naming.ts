/** Names and numbers the server gives accounts. */

/** `A-000042`: the account number for sequence value `n` (more digits once past 999999). */
export function formatAccountNumber(n: number): string {
  return `A-${String(n).padStart(6, "0")}`;
}

/** The name of an account created from its primary contact (spec: `<first> <last> - Account`). */
export function accountNameFor(firstName: string, lastName: string): string {
  return `${firstName} ${lastName} - Account`;
}
