/**
 * The named parts of the OpenAPI document (`components`), so generated clients get a `Product`
 * type rather than an anonymous shape per operation:
 *  - schemas: every zod schema named where it is defined, with `.meta({ id: "Product" })`,
 *    becomes `#/components/schemas/Product`, and every use of it a `$ref` (request bodies,
 *    responses, nested fields, the `ProductPage` envelope of app/schemas.ts `listResponse`);
 *  - error responses: one entry per status, codes and meaning, named after them
 *    (`Error409ConcurrentUpdateOrInUse`), so a name depends on what the answer is and never on
 *    the order routes are declared in.
 */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

const COMPONENT_PREFIX = "#/components/schemas/";

/** Converts zod schemas to JSON Schema, collecting the named ones as components. */
export class SchemaComponents {
  readonly #named: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };

  /**
   * The JSON Schema of `schema` as the document shows it: named parts are `$ref`s. A `query`
   * (the values of a query string, all text) shows what each value is read as: `page=2` an
   * integer, `isActive=true` a boolean, which is what a generated client then sends.
   */
  convert(schema: z.ZodType, io: Io, query = false): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      target: "draft-2020-12",
      override: (context) => {
        if (io === "input") checkedFormat(context);
        if (query) queryValueType(context);
      },
    }) as JsonSchema;
    delete json["$schema"];
    const defs = (json["$defs"] ?? {}) as Record<string, JsonSchema>;
    delete json["$defs"];
    for (const [id, def] of Object.entries(defs)) {
      if (id.startsWith("__")) {
        throw new Error(
          `A schema used twice in a cycle needs a name: .meta({ id }) (${JSON.stringify(def)})`,
        );
      }
      const text = JSON.stringify(withComponentRefs(def));
      const known = this.#named[io].get(id);
      if (known !== undefined && known !== text) {
        throw new Error(`Two different schemas are named "${id}": ${known} and ${text}`);
      }
      this.#named[io].set(id, text);
    }
    return withComponentRefs(json) as JsonSchema;
  }

  /** Follows a `$ref` to the named schema it points at (examples walk the real shape). */
  resolve(schema: JsonSchema, io: Io): JsonSchema {
    const ref = schema["$ref"];
    if (typeof ref !== "string" || !ref.startsWith(COMPONENT_PREFIX)) return schema;
    const text = this.#named[io].get(ref.slice(COMPONENT_PREFIX.length));
    return text === undefined ? schema : this.resolve(JSON.parse(text), io);
  }

  /**
   * `components.schemas`, sorted by name. A name means one shape: a schema whose request form
   * (defaults optional, input of transforms) differs from its response form must not be used
   * on both sides.
   */
  all(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const io of ["output", "input"] as const) {
      for (const [id, text] of this.#named[io]) {
        const other = out[id];
        if (other && JSON.stringify(other) !== text) {
          throw new Error(
            `"${id}" is used in requests and in responses, and its two forms differ: ` +
              "name a request schema of its own",
          );
        }
        out[id] = JSON.parse(text);
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * A request value cleaned up, then checked for a format (an email: trimmed, then `z.email()`):
 * the document shows the format the server checks, which zod leaves on the output side.
 */
function checkedFormat(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (context.zodSchema as z.ZodType)._zod.def as { type: string; out?: z.ZodType };
  const { jsonSchema } = context;
  if (def.type !== "pipe" || !def.out || jsonSchema["type"] !== "string") return;
  if (jsonSchema["format"] !== undefined) return;
  const out = z.toJSONSchema(def.out, { unrepresentable: "any" }) as JsonSchema;
  if (out["type"] !== "string" || typeof out["format"] !== "string") return;
  // The format only: its pattern would refuse what the server cleans up first (spaces).
  jsonSchema["format"] = out["format"];
}

/**
 * A query value parsed from its text: digits piped into a number (`page`, `limit`) are that
 * number's schema (integer, bounds); `"true" | "false"` (app/schemas.ts queryBoolean) a boolean.
 */
function queryValueType(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const { jsonSchema } = context;
  const def = (context.zodSchema as z.ZodType)._zod.def as {
    type: string;
    out?: z.ZodType;
    defaultValue?: unknown;
  };
  if (def.type === "default" && jsonSchema["default"] === undefined) {
    jsonSchema["default"] = def.defaultValue; // zod drops it before a transform (`page` = 1)
    return;
  }
  let replacement: JsonSchema | undefined;
  if (def.type === "pipe" && def.out?._zod.def.type === "number") {
    const { $schema: _, ...number } = z.toJSONSchema(def.out) as JsonSchema;
    replacement = number;
  } else if (JSON.stringify(jsonSchema["enum"]) === JSON.stringify(["true", "false"])) {
    replacement = { type: "boolean" };
  }
  if (!replacement) return;
  for (const key of ["type", "pattern", "enum", "format", "minLength", "maxLength"]) {
    delete jsonSchema[key];
  }
  Object.assign(jsonSchema, replacement);
}

/** Rewrites zod's `#/$defs/Name` references to the document's components. */
function withComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentRefs);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string"
        ? inner.replace(/^#\/\$defs\//, COMPONENT_PREFIX)
        : withComponentRefs(inner),
    ]),
  );
}

interface ErrorResponse {
  status: number;
  codes: readonly string[];
  /** Set when the route words the status itself (an upload's 413); else the general meaning. */
  ownDescription: boolean;
  body: JsonSchema;
  operations: string[];
  /** The `{ $ref }` objects of the operations answering it, named at the end. */
  refs: { $ref: string }[];
}

/**
 * Error responses shared between operations: the operations answering one status with the
 * same codes and meaning refer to one entry, which keeps the document a third of the size.
 * The name lists the codes (`Error409ConcurrentUpdateOrInUse`); an answer the route words
 * itself adds the first operation (by id) using it (`…ForGetFilesServeByPath`). Names come
 * from content alone, so declaring routes in another order names every answer the same.
 */
export class ErrorResponses {
  readonly #byContent = new Map<string, ErrorResponse>();

  /** A `$ref` to the shared response, its name filled in by `all()`. */
  ref(
    operationId: string,
    status: number,
    codes: readonly string[],
    body: JsonSchema,
    ownDescription: boolean,
  ): { $ref: string } {
    const key = JSON.stringify(body);
    let entry = this.#byContent.get(key);
    if (!entry) {
      entry = { status, codes, ownDescription, body, operations: [], refs: [] };
      this.#byContent.set(key, entry);
    }
    entry.operations.push(operationId);
    const ref = { $ref: "" };
    entry.refs.push(ref);
    return ref;
  }

  /** `components.responses`, sorted by name; fills in the operations' references. */
  all(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const entry of this.#byContent.values()) {
      const name = errorResponseName(entry);
      if (out[name]) throw new Error(`Two error responses would be named ${name}`);
      out[name] = entry.body;
      for (const ref of entry.refs) ref.$ref = `#/components/responses/${name}`;
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}

function pascal(words: string): string {
  return words.split(/[_\s]/).filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}

function errorResponseName(entry: ErrorResponse): string {
  const name = `Error${entry.status}${entry.codes.map(pascal).join("Or")}`;
  if (!entry.ownDescription) return name;
  const first = [...entry.operations].sort()[0]!;
  return `${name}For${pascal(first)}`;
}

/**
 * The response headers the document declares (`components.headers`), by name. Every answer
 * carries `X-Request-Id`; the rest are declared where the server sends them.
 */
export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description: "The request's id: the client's own `X-Request-Id` when it is 1–128 characters " +
      "of `A-Za-z0-9._-`, else one the server made. Problem bodies repeat it as `requestId`.",
    required: true,
    schema: { type: "string", minLength: 1, maxLength: 128, examples: ["req-7f3a9c2e"] },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again",
    required: true,
    schema: { type: "integer", minimum: 0, examples: [5] },
  },
  "WWW-Authenticate": {
    description: "The scheme the API takes: `Bearer`",
    required: true,
    schema: { type: "string", examples: ["Bearer"] },
  },
  "Idempotent-Replayed": {
    description: "`true` on the stored answer of an earlier request with the same " +
      "`Idempotency-Key` and body (a POST's retry); absent on the first answer",
    schema: { type: "string", enum: ["true"] },
  },
  "Cache-Control": {
    description: "`no-store` (or `private, no-store`): the answer holds a credential, a secret " +
      "or a file, and no cache may keep it",
    required: true,
    schema: { type: "string", examples: ["no-store"] },
  },
  "Content-Disposition": {
    description: "How a browser shows the download, with its file name",
    required: true,
    schema: { type: "string", examples: ['inline; filename="labels.pdf"'] },
  },
  Vary: {
    description: "`Accept`: the same URL answers several forms, chosen by `Accept`",
    required: true,
    schema: { type: "string", examples: ["Accept"] },
  },
} as const;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** A response's `headers`: references to `components.headers`. */
export function headerRefs(names: readonly ResponseHeader[]): Record<string, { $ref: string }> {
  return Object.fromEntries(
    [...new Set(names)].map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );
}
