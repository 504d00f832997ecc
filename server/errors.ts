/**
 * The ONLY place HTTP statuses live: domain errors, validation failures, database errors
 * and everything unexpected become RFC 9457 problem+json here.
 */
import { z } from "zod";
import {
  BadInputError,
  DomainError,
  type ErrorKind,
  type FieldIssue,
  RateLimitedError,
  ValidationError,
} from "../domain/errors.ts";
import { translateDatabaseError } from "../app/db/db_errors.ts";

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

export const TITLES: Record<number, string> = {
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
  /** Extension members of the error (e.g. `candidates`), see DomainError.extensions. */
  [extension: string]: unknown;
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

/** Builds the problem response for any thrown value; `internal` hides everything unknown. */
export function toProblem(error: unknown, requestId: string): ProblemResponse {
  const domainError = error instanceof DomainError ? error : translateDatabaseError(error);
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
    ...domainError.extensions,
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
