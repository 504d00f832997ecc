/**
 * Builds the OpenAPI 3.1 document from the registered route specs: the same zod schemas
 * that validate requests describe them (no hand-written duplicate).
 */
import { z } from "zod";
import { MAX_YEAR, MIN_YEAR } from "../app/schemas.ts";
import { TITLES } from "./errors.ts";
import type { RegisteredRoute } from "./route.ts";
import { exampleForBody } from "./openapi_examples.ts";
import {
  ErrorResponses,
  headerRefs,
  type JsonSchema,
  RESPONSE_HEADERS,
  type ResponseHeader,
  SchemaComponents,
} from "./openapi_components.ts";

const problemSchema: JsonSchema = {
  type: "object",
  required: ["type", "title", "status", "code", "detail", "requestId"],
  properties: {
    type: { type: "string", examples: ["about:blank"] },
    title: { type: "string" },
    status: { type: "integer" },
    code: { type: "string", description: "Stable snake_case machine code" },
    detail: { type: "string" },
    requestId: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

/** What each error status means in general; each operation lists the `code` values it can answer. */
const ERROR_MEANINGS: Record<number, string> = {
  400: "Bad input",
  401: "Missing, invalid, expired or revoked token, or a disabled user",
  403:
    "Not allowed: a permission missing, the module disabled, or a PIN token where a full login is needed",
  404: "No such record (or not visible to the caller)",
  409:
    "Conflict with the current state; a write that lost a race three times answers `concurrent_update`",
  413: "The body is larger than the route takes",
  415: "A Content-Type the route does not take",
  423: "Locked",
  429: "Rate limited; see `Retry-After`",
  500: "Unexpected error",
  503:
    "Database unreachable, answered within 5 s whatever the request was doing (connecting, waiting for a connection, mid-query, mid-commit: a commit whose outcome is unknown answers 503 too), or no database connection free within 5 s; see `Retry-After`",
};

function errorResponseBody(status: number, codes: readonly string[], description: string) {
  return {
    description: `${description}. \`code\`: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
    headers: headerRefs(statusHeaders(status, true)),
    content: {
      "application/problem+json": {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Problem" },
            { type: "object", properties: { code: { type: "string", enum: [...codes] } } },
          ],
        },
        example: {
          type: "about:blank",
          title: TITLES[status] ?? "Error",
          status,
          code: codes[0],
          detail: description,
          requestId: "req-7f3a9c2e",
        },
      },
    },
  };
}

/** A JSON answer's schema and an example of it, drawn like the request examples. */
function responseContent(schema: JsonSchema, path: string, schemas: SchemaComponents) {
  const example = exampleForBody(schema, path, (named) => schemas.resolve(named, "output"));
  return { schema, ...(example === undefined ? {} : { example }) };
}

/** A body of bytes in one media type or another (a PDF, a stored file). */
function binaryContent(types: string | readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    (typeof types === "string" ? [types] : types).map((type) => [
      type,
      { schema: { type: "string", contentMediaType: type } },
    ]),
  );
}

/** Statuses a POST's stored answer can have (a handler's): its replay says so. */
const REPLAYABLE_ERRORS = new Set([400, 404, 409, 422, 423]);

/**
 * What every answer with `status` carries: `X-Request-Id`; 401 `WWW-Authenticate`; 429 and
 * 503 `Retry-After`; the replay of a keyed POST `Idempotent-Replayed`.
 */
function statusHeaders(status: number, replayable: boolean): ResponseHeader[] {
  const names: ResponseHeader[] = ["X-Request-Id"];
  if (status === 401) names.push("WWW-Authenticate");
  if (status === 429 || status === 503) names.push("Retry-After");
  if (replayable && (status < 300 || REPLAYABLE_ERRORS.has(status))) {
    names.push("Idempotent-Replayed");
  }
  return names;
}

function operationId(method: string, path: string, used: Set<string>): string {
  const words = path.replace(/^\/v1/, "").split(/[/-]/).filter(Boolean).map((part) => {
    const name = part.replace(/^[:{]|[}]$/g, "").replace(/\*/, "path");
    const prefix = part.startsWith(":") ? "By" : "";
    return prefix + name.charAt(0).toUpperCase() + name.slice(1);
  });
  let id = method + words.join("");
  for (let n = 2; used.has(id); n++) id = `${method}${words.join("")}${n}`;
  used.add(id);
  return id;
}

function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\/\*$/, "/{path}");
}

function pathParameterNames(honoPath: string): string[] {
  const names = [...honoPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  if (honoPath.endsWith("/*")) names.push("path");
  return names;
}

function queryParameters(
  schema: z.ZodType | undefined,
  schemas: SchemaComponents,
): JsonSchema[] {
  if (!schema) return [];
  const json = schemas.convert(schema, "input", true);
  const properties = (json["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json["required"] ?? []) as string[]);
  return Object.entries(properties).map(([name, propertySchema]) => {
    const { description, ...rest } = propertySchema;
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** This document itself, for `GET /v1/openapi.json`. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
  components: z.looseObject({}),
}).meta({ id: "OpenApiDocument" });

export interface OpenApiInfo {
  version: string;
  serverUrl: string;
}

/**
 * The reference opens with how to get in (Swagger UI lists tags in this order): `Auth` first,
 * then the rest alphabetically.
 */
const LEADING_TAGS = ["Auth"];

function orderTags(tags: Iterable<string>): string[] {
  const all = [...tags];
  const rest = all.filter((t) => !LEADING_TAGS.includes(t)).sort();
  return [...LEADING_TAGS.filter((t) => all.includes(t)), ...rest];
}

export function buildOpenApiDocument(routes: RegisteredRoute[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  const schemas = new SchemaComponents();
  const errorResponses = new ErrorResponses();
  const tags = new Set<string>();
  for (const { spec, fullPath, tag, errors } of routes) {
    tags.add(tag);
    const path = openApiPath(fullPath);
    const parameters: JsonSchema[] = pathParameterNames(fullPath).map((name) => ({
      name,
      in: "path",
      required: true,
      schema: name === "path" ? { type: "string" } : paramSchema(spec.params, name, schemas),
    }));
    parameters.push(...queryParameters(spec.query, schemas));
    if (spec.idempotent) {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "Retry safely: the same key and body within 24 h replays the first response",
        schema: { type: "string", minLength: 1, maxLength: 255 },
      });
    }
    const responses: Record<string, unknown> = {};
    // Every POST of a non-public route takes an Idempotency-Key (server/route.ts).
    const keyed = spec.method === "post" && spec.access !== "public";
    for (const [status, response] of Object.entries(spec.responses)) {
      if (Number(status) >= 400 && !response.schema && !response.contentType) continue;
      const alternatives = Object.fromEntries(
        Object.entries(response.alternatives ?? {}).map((
          [type, description],
        ) => [type, { schema: { type: "string", description } }]),
      );
      const headers = headerRefs([
        ...statusHeaders(Number(status), keyed && Number(status) < 300),
        ...(response.headers ?? []),
      ]);
      responses[status] = response.schema
        ? {
          description: response.description,
          headers,
          content: {
            [String(response.contentType ?? "application/json")]: responseContent(
              schemas.convert(response.schema, "output"),
              path,
              schemas,
            ),
            ...alternatives,
          },
        }
        : response.contentType
        ? {
          description: response.description,
          headers,
          content: { ...binaryContent(response.contentType), ...alternatives },
        }
        : { description: response.description, headers };
    }
    const id = operationId(spec.method, fullPath, usedIds);
    for (const [status, unsorted] of errors) {
      if (responses[status]) continue; // a route's own error body (the health check's 503)
      const codes = [...unsorted].sort();
      const own = spec.responses[status]?.description;
      const body = errorResponseBody(status, codes, own ?? ERROR_MEANINGS[status] ?? "Error");
      responses[status] = errorResponses.ref(id, status, codes, body, own !== undefined);
    }
    const access = spec.access === "public"
      ? "No token needed."
      : spec.access === "authenticated"
      ? "Any authenticated user."
      : `Permission: \`${spec.access}\`.`;
    const operation: Record<string, unknown> = {
      operationId: id,
      summary: spec.summary,
      description: [
        spec.description,
        access,
        spec.fullLogin ? "PIN (`pos`) tokens are refused." : undefined,
      ]
        .filter(Boolean).join("\n\n"),
      tags: [tag],
      ...(spec.access === "public" ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      responses,
    };
    if (spec.body) {
      const bodySchema = schemas.convert(spec.body, "input");
      operation["requestBody"] = {
        required: !spec.body.safeParse(undefined).success,
        content: {
          "application/json": {
            schema: bodySchema,
            example: spec.example ??
              exampleForBody(bodySchema, path, (schema) => schemas.resolve(schema, "input")),
          },
        },
      };
    } else if (spec.multipart) {
      operation["requestBody"] = {
        required: true,
        content: {
          "multipart/form-data": { schema: schemas.convert(spec.multipart, "input") },
        },
      };
    }
    (paths[path] ??= {})[spec.method] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Shop back office API",
      version: info.version,
      description: DESCRIPTION,
      license: { name: "Proprietary", url: "https://example.invalid/license" },
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: orderTags(tags).map((name) => ({ name, description: `${name} routes` })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      headers: RESPONSE_HEADERS,
      responses: errorResponses.all(),
      schemas: { Problem: problemSchema, ...schemas.all() },
    },
  };
}

function paramSchema(
  params: z.ZodType | undefined,
  name: string,
  schemas: SchemaComponents,
): JsonSchema {
  if (!params) return { type: "string" };
  const json = schemas.convert(params, "input", true);
  return ((json["properties"] ?? {}) as Record<string, JsonSchema>)[name] ?? { type: "string" };
}

const DESCRIPTION = `Back office of a shop that sells, repairs and teaches.

Conventions (see each operation for specifics):
- Errors are RFC 9457 \`application/problem+json\` with a stable \`code\` and the \`requestId\`. Each
  operation lists every status it can answer and, for each, the \`code\` values (an enum on \`code\`):
  the ones every route of its kind can answer (401 without a token, 404 for an unknown id, 409
  \`concurrent_update\` on writes, ...) and its own (409 \`slot_full\`, 400 \`invalid_reference\`, ...).
  Request bodies come with an example a shop would send; ids in examples name no real record.
- Every response carries \`X-Request-Id\` (the client's own when it is 1–128 characters of \`A-Za-z0-9._-\`);
  each response lists the headers it carries (\`WWW-Authenticate\` on 401, \`Retry-After\` on 429 and 503,
  \`Idempotent-Replayed\` on a replay, \`Cache-Control: no-store\` where an answer holds a secret).
- Lists take \`page\` (from 1), \`limit\` (1..100, default 25, larger values clamped), \`q\`, \`sort\`, \`order\`
  and answer \`{ data, pagination: { page, limit, total, totalPages, totalExact } }\`. Unknown query parameters → 400.
  \`total\` is exact up to 10,000 matching rows (\`totalExact: true\`); above that, counting every row would
  make a list's first page cost in proportion to the table, so \`total\` and \`totalPages\` are the database's
  estimate (never below 10,001) and \`totalExact\` is false. Pages past the estimate answer an empty \`data\`.
- Unknown body fields are refused with 400; so is a body sent to a write that takes none (\`{}\` or
  no body at all is fine there). Query values are text on the wire: \`page=2\`, \`isActive=true\` (typed
  here as what they are read as). Money is a string with two decimals ("19.99"); requests
  may also send a JSON number with at most two decimals (19.99).
- A NUL character (U+0000) in any string, body or query, → 400 naming the field. Dates and timestamps
  are accepted for the years ${MIN_YEAR}–${MAX_YEAR} (others → 400).
- Bodies: JSON (\`Content-Type: application/json\`) of at most 1 MiB; uploads multipart/form-data of at
  most \`upload.maxBytes\` plus 64 KiB. A larger body → 413 \`payload_too_large\` (a declared
  Content-Length at once, else as soon as the limit is passed); a Content-Type the route does not take
  (multipart on a JSON route, JSON on an upload) → 415 \`unsupported_media_type\`, before the body is
  read. The token and permission are checked before any body is read (401/403 first).
- Any POST accepts \`Idempotency-Key\`: a retry with the same key and body within 24 h replays the first
  response; the same key with another body → 409 \`idempotency_key_reused\`. Not on public routes
  (login, pin-login, ...), and responses sent with \`Cache-Control: no-store\` (tokens, reset links) are
  never stored: such a retry acts again. A keyed request does its work and stores its response in one
  database transaction, so after a 503 whose commit was lost the retry either replays the committed
  response or does the work once; a retry arriving while the first is still running waits for it
  (up to 10 s, then 409 \`idempotency_in_progress\`). A 5xx undoes the request's work.
- Ids in paths that are not UUIDs → 404.
- A write that loses a race with another (a deadlock or serialization failure in the database) is
  run again by the server itself, up to 3 times; only then → 409 \`concurrent_update\`.`;
