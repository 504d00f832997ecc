/** Recognising PostgreSQL errors: for use cases that expect one, and for the drivers. */
import {
  BadInputError,
  ConflictError,
  type DomainError,
  InvalidReferenceError,
  UnavailableError,
} from "../../domain/errors.ts";
import { POOL_TIMEOUT } from "./connection_slots.ts";

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

/** The `code` of an operation given up because the database cannot be reached (→ 503). */
export const DATABASE_UNREACHABLE = "DATABASE_UNREACHABLE";

export function unreachableError(): Error {
  return Object.assign(new Error("The database cannot be reached"), {
    code: DATABASE_UNREACHABLE,
  });
}

/** Codes meaning a new connection could not be opened: the database is unreachable. */
export const CONNECT_FAILED: ReadonlySet<string> = new Set([
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P03", // cannot_connect_now: starting up or shutting down
]);

/** Codes of postgres.js, the OS and PostgreSQL meaning an open connection is gone. */
export const CONNECTION_LOST: ReadonlySet<string> = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "ECONNRESET",
  "EPIPE", // written after the server closed its end ("socket has been ended by the other party")
  "ETIMEDOUT",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  DATABASE_UNREACHABLE,
]);

export function isConnectionLost(error: unknown): boolean {
  return CONNECTION_LOST.has(errorCode(error) ?? "");
}

/**
 * A deadlock (40P01) or serialization failure (40001): the transaction lost a race and may
 * succeed when run again from the start (`withTransaction` does, a few times).
 */
export function isTransientConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code === "40P01" || code === "40001";
}

/**
 * Translates errors raised by PostgreSQL (or the connection) that a use case did not
 * anticipate into domain meaning, for every driver: the server maps the result to HTTP, the
 * CLI prints its message. Constraint names and SQL never reach the user.
 */
export function translateDatabaseError(error: unknown): DomainError | undefined {
  const code = errorCode(error);
  if (!code) return undefined;
  if (CONNECT_FAILED.has(code) || CONNECTION_LOST.has(code) || code === "53300") {
    return new UnavailableError("The database cannot be reached");
  }
  if (code === POOL_TIMEOUT) {
    return new UnavailableError("The database is busy; try again shortly");
  }
  if (error instanceof Error && /Connection terminated|ECONNREFUSED/i.test(error.message)) {
    return new UnavailableError("The database cannot be reached");
  }
  switch (code) {
    case "23505":
      return new ConflictError("duplicate", "A record with these values already exists");
    case "23P01":
      return new ConflictError("conflict", "The change conflicts with an existing record");
    case "23503":
      return new InvalidReferenceError("", "A referenced record does not exist");
    case "23001": // restrict_violation: something still refers to the record
      return new ConflictError("in_use", "The record is still in use");
    case "22P02":
    case "22007":
    case "22008":
    case "22003":
      return new BadInputError("bad_request", "A value has the wrong format or is out of range");
    case "40001":
    case "40P01":
      return new ConflictError("concurrent_update", "The record changed concurrently; retry");
    case "57014":
      return new UnavailableError("The request took too long");
    default:
      return undefined;
  }
}
