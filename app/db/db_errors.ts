/** Recognising PostgreSQL errors that use cases turn into domain meaning. */

/**
 * The `code` of an error or of the first error in its `cause` chain: a SQLSTATE, or a
 * connection code of postgres.js or the OS (`ECONNREFUSED`, `CONNECTION_CLOSED`, ...).
 */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause && cause !== error ? errorCode(cause) : undefined;
}

function constraintOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { constraint_name?: unknown; constraint?: unknown; cause?: unknown };
  const name = e.constraint_name ?? e.constraint;
  if (typeof name === "string") return name;
  return e.cause && e.cause !== error ? constraintOf(e.cause) : undefined;
}

/** A unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return errorCode(error) === "23505" && (!constraint || constraintOf(error) === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return errorCode(error) === "23503";
}

/** A referenced row deleted under an `ON DELETE RESTRICT` foreign key (23001). */
export function isRestrictViolation(error: unknown): boolean {
  return errorCode(error) === "23001";
}

export function isExclusionViolation(error: unknown, constraint?: string): boolean {
  return errorCode(error) === "23P01" && (!constraint || constraintOf(error) === constraint);
}

export function isSerializationFailure(error: unknown): boolean {
  const state = errorCode(error);
  return state === "40001" || state === "40P01";
}
