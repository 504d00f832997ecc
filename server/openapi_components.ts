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

  /** The JSON Schema of `schema` as the document shows it: named parts are `$ref`s. */
  convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      target: "draft-2020-12",
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
