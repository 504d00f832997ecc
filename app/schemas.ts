/**
 * Shared zod building blocks: ids, dates, money, lists. Feature schemas compose these, and
 * the same schemas validate HTTP input, CLI input and feed the OpenAPI document.
 */
import { z } from "zod";
import "./validation_messages.ts"; // plain-language messages for every schema (zod's global map)

export const uuid = z.uuid({ version: undefined }).describe("UUID");
export const idParams = z.object({ id: uuid });

/**
 * The years a date or timestamp may name (API §1.1: a date the service cannot represent is a
 * 400, never a 500). Wide enough for any birth date, agreement or schedule; narrow enough that
 * a day after the last one (the end of an inclusive range) still fits every engine and Date.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;
const YEAR_RANGE_MESSAGE = `Expected a year from ${MIN_YEAR} to ${MAX_YEAR}`;

function inYearRange(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

export const isoDate = z.iso.date().refine(inYearRange, YEAR_RANGE_MESSAGE)
  .describe(`Calendar date YYYY-MM-DD (years ${MIN_YEAR}–${MAX_YEAR})`);
export const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Expected HH:MM (24 h)");
export const timestamp = z.iso.datetime({ offset: true }).refine(inYearRange, YEAR_RANGE_MESSAGE)
  .describe(`ISO 8601 timestamp (years ${MIN_YEAR}–${MAX_YEAR})`);
/** A range bound of a list: a store-local date (the whole day) or an instant. */
export const dateOrTimestamp = z.union([isoDate, timestamp], {
  error: (issue) =>
    issue.input === undefined
      ? "Required"
      : `Expected YYYY-MM-DD or an ISO 8601 timestamp, years ${MIN_YEAR}–${MAX_YEAR}`,
}).describe(
  `YYYY-MM-DD (store-local day, inclusive) or an ISO 8601 timestamp; years ${MIN_YEAR}–${MAX_YEAR}`,
);

const PERCENT_PATTERN = /^\d{1,3}(\.\d{1,2})?$/;

/**
 * The shortest decimal form of a JSON number ("0.29" for 0.29, "1e+21" for 1e21, "" for a
 * non-finite one). Amounts are judged by this text, never by float arithmetic: 0.29 * 100 is
 * 28.999999999999996, yet 0.29 is an amount with two decimals.
 */
function numberText(n: number): string {
  if (!Number.isFinite(n)) return "";
  return String(Object.is(n, -0) ? 0 : n);
}

/** "19.9" → "19.90", "-0" → "0.00", "007" → "7.00": exact, by string, no float rounding. */
function twoDecimals(text: string): string {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const out = `${whole.replace(/^0+(?=\d)/, "")}.${fraction.padEnd(2, "0")}`;
  return negative && out !== "0.00" ? `-${out}` : out;
}

const MONEY_MESSAGE = "Expected an amount with at most two decimals";

/** Money with at most `digits` digits before the point (see {@link money}). */
function moneyWithDigits(digits: number) {
  const pattern = new RegExp(`^-?\\d{1,${digits}}(\\.\\d{1,2})?$`);
  const largest = Number(`${"9".repeat(digits)}.99`);
  return z.union([
    z.string().regex(pattern, MONEY_MESSAGE),
    z.number().refine((n) => pattern.test(numberText(n)), MONEY_MESSAGE)
      .meta({ multipleOf: 0.01, minimum: -largest, maximum: largest }),
  ]).transform((v) => twoDecimals(typeof v === "number" ? numberText(v) : v))
    .describe('Amount, e.g. "19.99" or 19.99 (at most two decimals)');
}

/**
 * Money on the wire (API §1.2): a "12.34" string or a JSON number with at most two decimals
 * (19.99, 1.1, 0.29), at most 10 digits before the point (numeric(12,2)); out: "12.34".
 */
export const money = moneyWithDigits(10);

/** `money` that refuses a negative amount. */
export const nonNegativeMoney = money.refine((v) => !v.startsWith("-"), "Must not be negative")
  .describe('Amount, never negative, e.g. "19.99" or 19.99 (at most two decimals)');

/**
 * {@link nonNegativeMoney} for a figure of a drawer session (its counted closing balance):
 * a session sums many amounts of up to 10 digits, so its figures are stored as
 * numeric(16,2) and take up to 14 digits before the point. Beyond integer cents' exact range
 * (2^53 − 1 cents) `parseMoney` refuses the amount (400).
 */
export const nonNegativeSessionMoney = moneyWithDigits(14)
  .refine((v) => !v.startsWith("-"), "Must not be negative");

export const moneyString = z.string().regex(/^-?\d+\.\d{2}$/).describe("Amount with two decimals");

const PERCENT_MESSAGE = "Expected a percentage with at most two decimals";

/** A percentage on the wire: "12.50" or 12.5, at most two decimals, 0..100; out: "12.50". */
export const percent = z.union([
  z.string().regex(PERCENT_PATTERN, PERCENT_MESSAGE),
  z.number().min(0, "Must be between 0 and 100").max(100, "Must be between 0 and 100")
    .refine((n) => PERCENT_PATTERN.test(numberText(n)), PERCENT_MESSAGE),
]).transform((v) => twoDecimals(typeof v === "number" ? numberText(v) : v)).refine(
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
  totalExact: z.boolean().describe(
    "True when `total` is an exact count. Counting stops at 10,000 matching rows; above that " +
      "`total` (and `totalPages`) is the database's estimate and this is false.",
  ),
}).meta({ id: "Pagination" });

/** The OpenAPI name of a schema (`.meta({ id })`, server/openapi_components.ts), if it has one. */
function nameOf(schema: z.ZodType): string | undefined {
  return z.globalRegistry.get(schema)?.id;
}

/** A page of a list (API §1.3), named after its items: `ProductPage` for `Product`. */
export function listResponse<T extends z.ZodType>(item: T) {
  const schema = z.object({ data: z.array(item), pagination });
  const name = nameOf(item);
  return name ? schema.meta({ id: `${name}Page` }) : schema;
}

/** A whole list in one answer, named after its items: `RoleList` for `Role`. */
export function dataResponse<T extends z.ZodType>(item: T) {
  const schema = z.object({ data: z.array(item) });
  const name = nameOf(item);
  return name ? schema.meta({ id: `${name}List` }) : schema;
}

/** Query-string booleans: only `true`/`false`. */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

/** `%`, `_` and `\` in a search term match themselves. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
