// deno-lint-ignore-file no-explicit-any
/**
 * The pieces of the OpenAPI fuzz run (tests/fuzz_test.ts): a seeded random source, plausible
 * values drawn from the JSON Schemas of /v1/openapi.json, and the odd values each kind of
 * field is then given (NUL bytes, far dates, huge and negative numbers, oversized arrays, wrong
 * types). Pure: no app, no I/O.
 */
import fc from "fast-check";

type Json = any;
export type Schema = Record<string, any>;
export type Path = ReadonlyArray<string | number>;

/** mulberry32: a small seeded PRNG, so a run is the same every time. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(16).toString(16));
    hex[12] = "4";
    hex[16] = "89ab"[this.int(4)]!;
    const h = hex.join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${
      h.slice(20)
    }`;
  }
  /** Deterministic `n` first items after a seeded shuffle. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }
}

/** Ids seen in responses, by resource ("location", "scheduleslot"), to make references real. */
export class IdPool {
  readonly #ids = new Map<string, string[]>();
  constructor(private readonly excluded: ReadonlySet<string>) {}

  static key(segment: string): string {
    const lower = segment.toLowerCase().replace(/[^a-z]/g, "");
    if (lower.endsWith("ies")) return `${lower.slice(0, -3)}y`;
    if (/(ss|us|x)es$/.test(lower)) return lower.slice(0, -2);
    return lower.endsWith("s") ? lower.slice(0, -1) : lower;
  }

  add(resource: string, id: unknown): void {
    if (typeof id !== "string" || this.excluded.has(id)) return;
    const list = this.#ids.get(resource) ?? [];
    if (!list.includes(id) && list.length < 20) list.push(id);
    this.#ids.set(resource, list);
  }

  /** An id for a field named `fooId` (or a path's resource), else undefined. */
  find(base: string, rng: Rng): string | undefined {
    const b = base.toLowerCase().replace(/[^a-z]/g, "");
    if (b === "") return undefined;
    const keys = [...this.#ids.keys()];
    const key = keys.find((k) => k === b) ??
      keys.find((k) => k.endsWith(b) || b.endsWith(k) || b.startsWith(k));
    const list = key ? this.#ids.get(key) : undefined;
    return list && list.length > 0 ? rng.pick(list) : undefined;
  }
}

export interface GenContext {
  rng: Rng;
  ids: IdPool;
  resolve(schema: Schema): Schema;
}

/** Resolves local `$ref`s of an OpenAPI document. */
export function resolver(doc: Json): (schema: Schema) => Schema {
  return (schema) => {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === "string" && hops < 10; hops++) {
      const parts = current.$ref.replace(/^#\//, "").split("/");
      current = parts.reduce((node: Json, part: string) => node?.[part], doc);
    }
    return current ?? {};
  };
}

const FORMAT_VALUES: Record<string, string> = {
  date: "2026-06-15",
  "date-time": "2026-06-15T12:00:00.000Z",
  email: "fuzz@example.com",
};

/** Values that a field's name asks for and its schema cannot say (a known time zone...). */
const NAMED_VALUES: Record<string, string> = {
  timezone: "America/Chicago",
  permissions: "inventory.view",
  email: "fuzz@example.com",
  currency: "USD",
  state: "NY",
  status: "in_stock",
  condition: "good",
};

/** Optional fields left out of a plausible body: they only fit other kinds of records. */
const LEFT_OUT = new Set(["repairTicketId", "isMinor", "rentalChargeIds", "unitId", "parentId"]);

/** Stands for the file part of a multipart body (see the fuzz test's `formOf`). */
export const FILE_PART = "<file part>";

function stringFor(schema: Schema, name: string, ctx: GenContext): string {
  if (schema.format === "uuid") {
    return ctx.ids.find(name.replace(/Ids?$/, ""), ctx.rng) ?? ctx.rng.uuid();
  }
  if (FORMAT_VALUES[schema.format]) return FORMAT_VALUES[schema.format]!;
  if (NAMED_VALUES[name]) return NAMED_VALUES[name]!;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 40;
  if (typeof schema.pattern === "string") {
    // A small positive amount: a drawn "-9999999999.9" fits no rule of any route.
    if (schema.pattern.endsWith("(\\.\\d{1,2})?$")) return "12.50";
    try {
      const pattern = new RegExp(schema.pattern.replace(/^\^-\?/, "^"));
      const [value] = fc.sample(fc.stringMatching(pattern), {
        seed: ctx.rng.int(2 ** 31),
        numRuns: 1,
      });
      if (value !== undefined && value.length >= min && value.length <= max) return value;
    } catch {
      // A pattern fast-check cannot draw from: fall through to plain text.
    }
  }
  const text = `Fuzz ${name || "value"} ${ctx.rng.int(1e6)}`;
  return text.slice(0, Math.max(min, Math.min(max, text.length))).padEnd(min, "x");
}

function numberFor(schema: Schema, integer: boolean): number {
  const low = schema.minimum ??
    (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const high = schema.maximum ??
    (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : low + 10);
  const value = Math.min(Math.max(low, 1), high);
  return integer ? Math.ceil(value) : value;
}

/**
 * A plausible value for `schema`: every property when `full`, else only the required ones;
 * enums take their first value, ids come from the pool when one fits the field's name.
 */
export function sampleValue(
  schema: Schema,
  ctx: GenContext,
  full = true,
  name = "",
  depth = 0,
): Json {
  const s = ctx.resolve(schema);
  if (depth > 8) return null;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(s[key])) {
      const options = s[key].map(ctx.resolve).filter((o: Schema) => o.type !== "null");
      return sampleValue(options[0] ?? s[key][0], ctx, full, name, depth + 1);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    return sampleValue(s.allOf[0], ctx, full, name, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, Json> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, child] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.has(key) || (full && !LEFT_OUT.has(key))) {
          out[key] = sampleValue(child, ctx, full, key, depth + 1);
        }
      }
      return out;
    }
    case "array": {
      const count = Math.max(1, s.minItems ?? 0);
      return Array.from(
        { length: Math.min(count, 3) },
        () => sampleValue(s.items ?? {}, ctx, full, name, depth + 1),
      );
    }
    case "string":
      return stringFor(s, name, ctx);
    case "integer":
      return numberFor(s, true);
    case "number":
      return numberFor(s, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "fuzz";
  }
}

/** Every path to a value inside `value` (objects and arrays included), parents first. */
export function pathsOf(value: Json, path: Path = []): Path[] {
  const out: Path[] = path.length > 0 ? [path] : [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...path, i])));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, k]));
  }
  return out;
}

export function getAt(value: Json, path: Path): Json {
  return path.reduce((node, key) => node?.[key], value);
}

/** A deep copy of `value` with the value at `path` replaced. */
export function setAt(value: Json, path: Path, replacement: Json): Json {
  if (path.length === 0) return replacement;
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const [head, ...rest] = path;
  (copy as any)[head!] = setAt((value as any)?.[head!], rest, replacement);
  return copy;
}

/** A NUL in a string: the case that must always be a 4xx naming the field when it is a 400. */
export const NUL_STRING = "fuzz\u0000value";

/** Odd strings: far dates, numbers too big for any column, odd Unicode, odd lengths. */
export const ODD_STRINGS: readonly string[] = [
  "9999-12-31",
  "0001-01-01",
  "9999-12-31T23:59:59Z",
  "275760-09-13",
  "2026-02-30",
  "99999999999999999999",
  "-99999999999999999999.99",
  "-1",
  "1e400",
  "",
  "   ",
  "\ud800",
  "\u202e\u0301\ufeff",
  "%_\\'\"`;--",
  "x".repeat(10_000),
];

/** Odd numbers: huge, negative, fractional, beyond int4/int8 and float precision. */
export const ODD_NUMBERS: readonly number[] = [
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  2_147_483_648,
  -2_147_483_649,
  -1,
  0,
  0.5,
  1e-9,
  99999999999.99,
];

/** Wrong types for any position. */
export const WRONG_TYPES: readonly Json[] = [null, {}, [], true, "fuzz", 12];

/** The odd replacements tried for the value `current` (NUL first for strings). */
export function oddValuesFor(current: Json): Json[] {
  if (typeof current === "string") return [NUL_STRING, ...ODD_STRINGS, ...WRONG_TYPES];
  if (typeof current === "number") return [...ODD_NUMBERS, "1", ...WRONG_TYPES];
  if (typeof current === "boolean") return ["true", 1, null];
  if (Array.isArray(current)) {
    const element = current[0] ?? "x";
    return [[], Array.from({ length: 9_000 }, () => element), [NUL_STRING], [null], {}];
  }
  if (current && typeof current === "object") {
    return [{}, [], null, { ...current, unknownField: 1 }];
  }
  return [...WRONG_TYPES];
}

/** Raw bodies that are not the JSON the route expects. */
export const MALFORMED_BODIES: ReadonlyArray<{ text: string; contentType: string }> = [
  { text: '{"a":', contentType: "application/json" },
  { text: "not json", contentType: "application/json" },
  { text: "[]", contentType: "application/json" },
  { text: "null", contentType: "application/json" },
  { text: '"fuzz\\u0000"', contentType: "application/json" },
  { text: "1e400", contentType: "application/json" },
  { text: '{"__proto__":{"x":1},"constructor":{"prototype":{}}}', contentType: "application/json" },
  { text: "[".repeat(50_000) + "]".repeat(50_000), contentType: "application/json" },
  { text: '{"a":1}', contentType: "text/plain" },
  { text: "\u0000\u0001\u0002", contentType: "application/octet-stream" },
];

/** Odd query-parameter values (already URL-encoded where they must be). */
export const ODD_QUERY_VALUES: readonly string[] = [
  "%00",
  "a%00b",
  "9999-12-31",
  "0001-01-01",
  "9999-12-31T23:59:59Z",
  "99999999999999999999",
  "-1",
  "0",
  "1.5",
  "%ZZ",
  "%E0%A4%A",
  "%ED%A0%80",
  "x".repeat(5_000),
  "%25%5F%5C",
];

/** Odd values for a path parameter. */
export const ODD_PATH_VALUES: readonly string[] = [
  "not-a-uuid",
  "%00",
  "00000000-0000-0000-0000-000000000000",
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(2_000),
];
