/**
 * `ApiRouter`: one per resource. Every route is declared with its access rule, its zod
 * schemas and its responses, which makes three things impossible to forget:
 *  - the guard (authentication, PIN-token restriction, module gate, permission — in that
 *    order, before any lookup), since `access` is a required field;
 *  - validation (path ids that are not UUIDs → 404, query/body → 400, unknown fields → 400);
 *  - documentation: `server/openapi.ts` builds the OpenAPI document from the same specs.
 *
 * The pipeline of a request: guard → path and query → body gate (a Content-Type the route
 * does not take → 415, before reading) → body read within the route's limit (413 while
 * reading) → Idempotency-Key (POST: claim or replay) → body schema → handler. Nothing reads
 * a body before the guard has let the caller in (server/middleware/body.ts).
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Permission } from "../domain/auth/permissions.ts";
import {
  BadInputError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from "../domain/errors.ts";
import { moduleForPath } from "../domain/platform/modules.ts";
import { translateDatabaseError } from "../app/db/db_errors.ts";
import type { AppDeps } from "../app/deps.ts";
import type { Actor } from "../app/actor.ts";
import { actorForDevUser, actorFromToken } from "../app/auth/actor.ts";
import type { AppEnv } from "./context.ts";
import { fieldIssues, STATUS_BY_KIND } from "./errors.ts";
import {
  type ErrorDeclarations,
  isDeclared,
  type RouteErrors,
  routeErrors,
} from "./route_errors.ts";
import { hasBody, JSON_BODY_LIMIT_BYTES, readBody, requireContentType } from "./middleware/body.ts";
import {
  idempotencyKeyOf,
  type ReplayCodec,
  requestHash,
  runIdempotent,
} from "./middleware/idempotency.ts";
import { boundaryOf, type MultipartPart, parseMultipart } from "./middleware/multipart.ts";
import { nulBytePaths, rejectNulBytes } from "./input_guards.ts";
import type { ResponseHeader } from "./openapi_components.ts";

export type Access = Permission | "public" | "authenticated";
export type { ErrorDeclarations, ErrorStatus } from "./route_errors.ts";
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /**
   * Defaults to application/json when `schema` is set. Several: the types the body may come in
   * (a stored file is served in its own type).
   */
  contentType?: string | readonly string[];
  /**
   * Other media types the same answer comes in, chosen by `Accept` (media type → what it
   * holds), e.g. the `text/plain` and `text/html` forms of a receipt (server/printable.ts).
   */
  alternatives?: Readonly<Record<string, string>>;
  /**
   * Headers this answer carries beyond those every answer of its kind does (`X-Request-Id`;
   * `Idempotent-Replayed` on a POST): `Cache-Control`, `Content-Disposition`, `Vary`.
   */
  headers?: readonly ResponseHeader[];
}

export interface RouteSpec<
  A extends Access,
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
> {
  method: HttpMethod;
  /** Hono path relative to the router's base (`/`, `/:id`, `/:id/items/:itemId`). */
  path: string;
  summary: string;
  description?: string;
  access: A;
  /** Refuse `pos` (PIN-login) tokens with 403 full_login_required. */
  fullLogin?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The request-body example of the OpenAPI document when the one derived from the schema
   * (server/openapi_examples.ts) would not pass the route's own rules.
   */
  example?: B extends z.ZodType ? z.input<B> : undefined;
  /**
   * Documented request body for multipart uploads: the route then takes multipart/form-data
   * only (anything else → 415) and its handler gets the parsed parts as `form`.
   */
  multipart?: z.ZodType;
  /**
   * The body's byte limit when it is not JSON's 1 MiB (an upload: `upload.maxBytes` plus the
   * multipart overhead); asked after the guard, before reading.
   */
  maxBodyBytes?: () => number | Promise<number>;
  /** Documents `Idempotency-Key` support (the pipeline serves every POST of a non-public route). */
  idempotent?: boolean;
  /** A response holding a secret derivable again: stored for replay without it. */
  replay?: ReplayCodec;
  responses: Record<number, ResponseSpec>;
  /**
   * Every error code the handler can answer that the pipeline does not add itself, e.g.
   * `{ 409: ["duplicate", "in_use"], 400: ["invalid_reference"] }`. The OpenAPI document lists
   * them, and tests refuse an undeclared one (an answer with an undeclared code is a 500 there).
   */
  errors?: ErrorDeclarations;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<A extends Access, P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  /** The parts of a `multipart` route's form (views into the body, read once). */
  form: MultipartPart[] | undefined;
  actor: A extends "public" ? Actor | undefined : Actor;
}

export type AnyRouteSpec = RouteSpec<
  Access,
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType | undefined
>;

export interface RegisteredRoute {
  spec: AnyRouteSpec;
  /** Full path below the server root in Hono syntax (`/v1/products/:id`). */
  fullPath: string;
  tag: string;
  /** Every error the route can answer, by status (server/route_errors.ts). */
  errors: RouteErrors;
}

export class ApiRouter {
  readonly hono = new Hono<AppEnv>();
  readonly routes: RegisteredRoute[] = [];

  constructor(
    private readonly deps: AppDeps,
    /** Mount path below `/v1` (`/products`). */
    readonly basePath: string,
    readonly tag: string,
  ) {}

  route<
    A extends Access,
    P extends z.ZodType | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    spec: RouteSpec<A, P, Q, B>,
    handler: (c: Context<AppEnv>, input: RouteInput<A, P, Q, B>) => Response | Promise<Response>,
  ): this {
    if (spec.body) {
      assertStrictBody(spec.body, `${spec.method.toUpperCase()} ${this.basePath}${spec.path}`);
    }
    const relativePath = joinPath(this.basePath, spec.path);
    const fullPath = `/v1${relativePath}`;
    const errors = routeErrors(spec as AnyRouteSpec, fullPath);
    this.routes.push({ spec: spec as AnyRouteSpec, fullPath, tag: this.tag, errors });
    const deps = this.deps;
    const checkContract = deps.config.env === "test";
    const where = `${spec.method.toUpperCase()} ${fullPath}`;
    // In tests an undeclared error becomes a 500 naming it (see `undeclaredAnswer`).
    const checked = (error: unknown) =>
      checkContract ? undeclaredAnswer(error, errors, where) ?? error : error;
    this.hono.on(spec.method.toUpperCase(), spec.path, async (c) => {
      try {
        return await pipeline(c);
      } catch (error) {
        throw checked(error);
      }
    });
    const pipeline = async (c: Context<AppEnv>): Promise<Response> => {
      const actor = await guard(deps, c, spec, relativePathOf(c.req.path));
      const params = spec.params ? parsePathParams(spec.params, c.req.param()) : undefined;
      const query = spec.query ? parseOrThrow(spec.query, queryObject(c)) : undefined;
      const key = spec.access === "public" ? undefined : idempotencyKeyOf(c);
      const bytes = await readRequestBody(c, spec);
      const run = async () => {
        try {
          const body = spec.body
            ? parseOrThrow(spec.body, parseJson(bytes))
            : spec.multipart
            ? undefined
            : parseOrThrow(NO_BODY, parseJson(bytes));
          const form = spec.multipart ? parseForm(c, bytes) : undefined;
          return await handler(c, { params, query, body, form, actor } as RouteInput<A, P, Q, B>);
        } catch (error) {
          throw checked(error); // a keyed request answers errors inside runIdempotent
        }
      };
      if (key === undefined) return run();
      return runIdempotent(deps, c, {
        scope: `user:${actor!.userId}`,
        key,
        hash: requestHash(c.req.method, c.req.path, bytes),
        codec: spec.replay,
      }, run);
    };
    return this;
  }
}

/**
 * In tests (APP_ENV=test) an error the route does not declare becomes a 500 naming it, so every
 * test that meets one fails: the OpenAPI document cannot fall behind what the code answers.
 */
function undeclaredAnswer(error: unknown, errors: RouteErrors, where: string): Error | undefined {
  const domainError = error instanceof DomainError ? error : translateDatabaseError(error);
  if (!domainError) return undefined;
  const status = STATUS_BY_KIND[domainError.kind];
  if (isDeclared(errors, status, domainError.code)) return undefined;
  const message = `${where} answered ${status} ${domainError.code}, which its route does not ` +
    `declare (add it to the route's \`errors\`): ${domainError.message}`;
  // Printed as well as logged: a test's own logger is in memory, and this is what to fix.
  console.error(`UNDECLARED ${message}`);
  return new Error(message);
}

function joinPath(base: string, path: string): string {
  const joined = `${base}${path === "/" ? "" : path}`;
  return joined === "" ? "/" : joined;
}

function relativePathOf(requestPath: string): string {
  return requestPath.startsWith("/v1/") ? requestPath.slice(3) : requestPath;
}

/** Authentication → PIN-token restriction → module gate → permission. */
async function guard(deps: AppDeps, c: Context<AppEnv>, spec: AnyRouteSpec, path: string) {
  let actor: Actor | undefined;
  if (spec.access !== "public") {
    actor = await authenticate(deps, c);
    if (spec.fullLogin && actor.kind === "pos") {
      throw new ForbiddenError(
        "full_login_required",
        "This action needs a full login, not a PIN login",
      );
    }
  }
  const module = moduleForPath(path);
  if (module && !(await deps.modules.isEnabled(module))) {
    throw new ForbiddenError("module_disabled", `The ${module} module is disabled`);
  }
  if (spec.access !== "public" && spec.access !== "authenticated") {
    if (!actor!.permissions.has(spec.access)) {
      throw new ForbiddenError("forbidden", `This action needs the ${spec.access} permission`);
    }
  }
  return actor;
}

/** Exported for routes declared "public" that accept a token as one way in (file serving). */
export async function authenticate(deps: AppDeps, c: Context<AppEnv>): Promise<Actor> {
  const existing = c.get("actor");
  if (existing) return existing;
  const header = c.req.header("Authorization");
  let actor: Actor;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new UnauthenticatedError("unauthenticated", "Expected a Bearer token");
    const claims = await deps.tokens.verify(match[1]!, deps.clock.now());
    actor = await actorFromToken(deps.actors, claims);
  } else {
    const devUser = c.req.header("X-Dev-User");
    if (devUser && deps.config.devBypass && deps.config.env !== "production") {
      actor = await actorForDevUser(deps.db, devUser);
    } else {
      throw new UnauthenticatedError("unauthenticated", "Authentication is required");
    }
  }
  c.set("actor", actor);
  return actor;
}

/** Query and body: the input guards (NUL anywhere → 400 naming the field), then the schema. */
function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  rejectNulBytes(value);
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(fieldIssues(result.error));
  return result.data;
}

/** A path that does not match its schema (a malformed id) names no record: 404. */
/** Path values: malformed, or holding a NUL (nothing can be named so) → 404. */
function parsePathParams<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  if (nulBytePaths(value, 1).length > 0) {
    throw new NotFoundError("not_found", "The record does not exist");
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new NotFoundError("not_found", "The record does not exist");
  return result.data;
}

function queryObject(c: Context): Record<string, string | string[]> {
  const all = c.req.queries();
  return Object.fromEntries(
    Object.entries(all).map(([key, values]) => [key, values.length === 1 ? values[0]! : values]),
  );
}

/**
 * What a route that takes no body accepts: nothing, or `{}`. Any field is refused like an
 * unknown field of any other body (400 `validation_failed` naming it), any other JSON value
 * with 400 too: a client sending data to such a route has it wrong and should hear so.
 */
const NO_BODY = z.strictObject({}).optional();

/**
 * The body's bytes, after the Content-Type gate (415 before reading) and within the route's
 * limit (413 while reading); undefined when there is none. A GET's body has no meaning and is
 * ignored; a write that takes none still reads it, to refuse one (`NO_BODY`).
 */
async function readRequestBody(c: Context, spec: AnyRouteSpec): Promise<Uint8Array | undefined> {
  if (spec.method === "get" || !hasBody(c.req.raw)) return undefined;
  requireContentType(c.req.raw, spec.multipart ? "multipart" : "json");
  const limit = spec.maxBodyBytes ? await spec.maxBodyBytes() : JSON_BODY_LIMIT_BYTES;
  return await readBody(c.req.raw, limit);
}

function parseJson(bytes: Uint8Array | undefined): unknown {
  if (!bytes) return undefined;
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadInputError("bad_request", "The request body is not valid JSON");
  }
}

function parseForm(c: Context, bytes: Uint8Array | undefined): MultipartPart[] {
  const boundary = boundaryOf(c.req.header("Content-Type") ?? "");
  const parts = bytes && boundary ? parseMultipart(bytes, boundary) : undefined;
  if (!parts) throw new BadInputError("bad_request", "The multipart body could not be read");
  return parts;
}

/** Bodies must refuse unknown fields (no mass assignment): use `z.strictObject`. */
function assertStrictBody(schema: z.ZodType, where: string): void {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType; catchall?: z.ZodType };
  while (
    (def.type === "optional" || def.type === "nullable" || def.type === "default") && def.innerType
  ) {
    def = def.innerType._zod.def as typeof def;
  }
  if (def.type === "object" && def.catchall?._zod.def.type !== "never") {
    throw new Error(`${where}: the body schema must be a z.strictObject (unknown fields refused)`);
  }
}
