/**
 * Shared zod building blocks: ids, dates, money, lists. Feature schemas compose these, and
 * the same schemas validate HTTP input, CLI input and feed the OpenAPI document.
 */
import { z } from "zod";

export const uuid = z.uuid({ version: undefined }).describe("UUID");
export const idParams = z.object({ id: uuid });

export const isoDate = z.iso.date().describe("Calendar date YYYY-MM-DD");
export const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Expected HH:MM (24 h)");
export const timestamp = z.iso.datetime({ offset: true });

/** Money on the wire: a "12.34" string or a JSON number with at most two decimals. */
export const money = z.union([
  z.string().regex(/^-?\d{1,10}(\.\d{1,2})?$/, "Expected an amount with at most two decimals"),
  z.number().refine(
    (n) => Number.isFinite(n) && Math.abs(n) < 1e10 && Math.round(n * 100) === n * 100,
    {
      message: "Expected an amount with at most two decimals",
    },
  ),
]).transform((v) => (typeof v === "number" ? v.toFixed(2) : Number(v).toFixed(2)))
  .describe('Amount, e.g. "19.99"');

/** `money` that refuses a negative amount. */
export const nonNegativeMoney = money.refine((v) => !v.startsWith("-"), "Must not be negative");

export const moneyString = z.string().regex(/^-?\d+\.\d{2}$/).describe("Amount with two decimals");

/** A percentage on the wire: "12.50" or 12.5, at most two decimals, 0..100; out: "12.50". */
export const percent = z.union([
  z.string().regex(/^\d{1,3}(\.\d{1,2})?$/, "Expected a percentage with at most two decimals"),
  z.number().min(0, "Must be between 0 and 100").max(100, "Must be between 0 and 100")
    .refine((n) => Math.round(n * 100) === n * 100, {
      message: "Expected a percentage with at most two decimals",
    }),
]).transform((v) => Number(v).toFixed(2)).refine(
  (v) => Number(v) >= 0 && Number(v) <= 100,
  "Must be between 0 and 100",
).describe('Percentage, e.g. "12.50"');

export const address = z.strictObject({
  line1: z.string().trim().min(1).max(200),
  line2: z.string().trim().max(200).nullish(),
  city: z.string().trim().min(1).max(100),
  state: z.string().trim().min(1).max(60),
  postalCode: z.string().trim().min(1).max(20),
  country: z.string().trim().max(60).nullish(),
});

const positiveInt = (name: string) =>
  z.string().regex(/^\d+$/, `${name} must be a positive integer`).transform(Number)
    .pipe(z.number().int().min(1, `${name} must be a positive integer`).max(1_000_000_000));

export interface ListParams<S extends string = string> {
  page: number;
  limit: number;
  q: string | undefined;
  sort: S;
  order: "asc" | "desc";
}

export const MAX_PAGE_SIZE = 100;

/**
 * The list query of API §1.3 plus a resource's filters, as one strict schema: unknown query
 * parameters, an unknown `sort`, a bad `order` or a non-positive `page`/`limit` → 400;
 * `limit` above 100 is clamped to 100.
 */
export function listQuery<S extends string, F extends z.ZodRawShape = Record<never, never>>(
  options: {
    sort: readonly [S, ...S[]];
    defaultSort: S;
    defaultOrder?: "asc" | "desc";
    filters?: F;
  },
) {
  return z.strictObject({
    page: positiveInt("page").default(1).describe("Page number, from 1"),
    limit: positiveInt("limit").transform((n) => Math.min(n, MAX_PAGE_SIZE)).default(25)
      .describe("Page size, 1..100 (larger values are clamped to 100)"),
    q: z.string().trim().max(200).optional().transform((v) => (v === "" ? undefined : v))
      .describe("Case-insensitive search"),
    sort: z.enum(options.sort as unknown as [S, ...S[]]).default(options.defaultSort as never)
      .describe(`Sort field: ${options.sort.join(", ")}`),
    order: z.enum(["asc", "desc"]).default(options.defaultOrder ?? "asc"),
    ...(options.filters ?? ({} as F)),
  });
}

export const pagination = z.object({
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  totalPages: z.int(),
});

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination });
}

export function dataResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

/** Query-string booleans: only `true`/`false`. */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

/** `%`, `_` and `\` in a search term match themselves. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
