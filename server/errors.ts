/**
 * The ONLY place HTTP statuses live: domain errors, validation failures, database errors
 * and everything unexpected become RFC 9457 problem+json here.
 */
import { z } from "zod";
import {
  BadInputError,
  ConflictError,
  DomainError,
  type ErrorKind,
  type FieldIssue,
  InvalidReferenceError,
  RateLimitedError,
  UnavailableError,
  ValidationError,
} from "../domain/errors.ts";
import { POOL_TIMEOUT } from "../app/db/connection_slots.ts";
import { errorCode } from "../app/db/db_errors.ts";

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  bad_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  locked: 423,
  rate_limited: 429,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface Problem {
  type: "about:blank";
  title: string;
  status: number;
  code: string;
  detail: string;
  requestId: string;
  errors?: FieldIssue[];
}

export interface ProblemResponse {
  status: number;
  body: Problem;
  headers: Record<string, string>;
}

/** Zod issues → our field issues (`items.0.quantity`); each unknown key is named itself. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...path, key].join("."),
        message: `Unknown field "${key}"`,
      }));
    }
    return [{ path: path.join("."), message: issue.message }];
  });
}

/** Network-level failures of the database connection: the database is unreachable. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/**
 * Translates errors raised by PostgreSQL that a use case did not anticipate into domain
 * meaning; constraint names never reach the client.
 */
export function fromDatabaseError(error: unknown): DomainError | undefined {
  const code = errorCode(error);
  if (!code) return undefined;
  if (UNREACHABLE_CODES.has(code)) return new UnavailableError("The database cannot be reached");
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

/** Builds the problem response for any thrown value; `internal` hides everything unknown. */
export function toProblem(error: unknown, requestId: string): ProblemResponse {
  const domainError = error instanceof DomainError ? error : fromDatabaseError(error);
  if (error instanceof z.ZodError) {
    return toProblem(new ValidationError(fieldIssues(error)), requestId);
  }
  if (!domainError) {
    return {
      status: 500,
      headers: {},
      body: {
        type: "about:blank",
        title: TITLES[500]!,
        status: 500,
        code: "internal",
        detail: "An unexpected error occurred",
        requestId,
      },
    };
  }
  const status = STATUS_BY_KIND[domainError.kind];
  const headers: Record<string, string> = {};
  if (domainError instanceof RateLimitedError) {
    headers["Retry-After"] = String(domainError.retryAfterSeconds);
  }
  if (status === 503) headers["Retry-After"] = "5";
  if (status === 401) headers["WWW-Authenticate"] = "Bearer";
  const body: Problem = {
    type: "about:blank",
    title: TITLES[status] ?? "Error",
    status,
    code: domainError.code,
    detail: domainError.message,
    requestId,
  };
  if (domainError instanceof BadInputError && domainError.issues) body.errors = domainError.issues;
  return { status, headers, body };
}

export function problemJson(problem: ProblemResponse): Response {
  return new Response(JSON.stringify(problem.body), {
    status: problem.status,
    headers: {
      ...problem.headers,
      "Content-Type": "application/problem+json",
      "X-Request-Id": problem.body.requestId,
    },
  });
}
