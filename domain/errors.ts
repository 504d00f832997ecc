/**
 * The semantic error taxonomy. Errors carry meaning (not found, conflict, ...) and a
 * stable snake_case `code`; `server/errors.ts` is the only place that maps them to HTTP.
 * Constructors take the code first and the message second wherever the code varies.
 */

/** One field-level problem of a validation failure. */
export interface FieldIssue {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly code: string;
  /**
   * Extra members of the problem document (RFC 9457 extension members, e.g. `candidates` of
   * an ambiguous scan); never secrets. The standard members always win over these.
   */
  extensions: Readonly<Record<string, unknown>> | undefined = undefined;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

export type ErrorKind =
  | "bad_input"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media"
  | "locked"
  | "rate_limited"
  | "unavailable";

/** The request is malformed or refers to something that cannot be used (400). */
export class BadInputError extends DomainError {
  readonly kind = "bad_input";
  readonly issues: FieldIssue[] | undefined;

  constructor(code: string, message: string, issues?: FieldIssue[]) {
    super(code, message);
    this.issues = issues;
  }
}

/** Input failed its schema; `issues` names each failing field. */
export class ValidationError extends BadInputError {
  constructor(issues: FieldIssue[], message = "The request is not valid") {
    super("validation_failed", message, issues);
  }
}

/** A reference to a record or lookup value that does not exist (400 invalid_reference). */
export class InvalidReferenceError extends BadInputError {
  constructor(path: string, message: string) {
    super("invalid_reference", message, [{ path, message }]);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = "unauthenticated";
  constructor(code = "unauthenticated", message = "Authentication is required") {
    super(code, message);
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
  constructor(code = "forbidden", message = "You do not have permission to do this") {
    super(code, message);
  }
}

export class NotFoundError extends DomainError {
  readonly kind = "not_found";
  constructor(code: string, message: string, extensions?: Record<string, unknown>) {
    super(code, message);
    this.extensions = extensions;
  }
}

/** Refused because of the current state or a uniqueness rule (409). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
  constructor(code: string, message: string, extensions?: Record<string, unknown>) {
    super(code, message);
    this.extensions = extensions;
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = "too_large";
  constructor(message = "The upload is larger than allowed") {
    super("payload_too_large", message);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = "unsupported_media";
  constructor(message = "This type of content is not accepted") {
    super("unsupported_media_type", message);
  }
}

/** The resource is locked until someone unlocks it (423): the vault (API §12). */
export class LockedError extends DomainError {
  readonly kind = "locked";
  constructor(code: string, message: string) {
    super(code, message);
  }
}

export class RateLimitedError extends DomainError {
  readonly kind = "rate_limited";
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = "Too many requests; try again later") {
    super("rate_limited", message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** A dependency (the database) cannot be reached right now (503). */
export class UnavailableError extends DomainError {
  readonly kind = "unavailable";
  constructor(message = "The service is temporarily unavailable") {
    super("unavailable", message);
  }
}
