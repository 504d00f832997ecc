/**
 * What a field failing its schema is told, in the shop's words ("Required", "At most 200
 * characters", "Expected one of: cash, card") instead of zod's defaults ("Invalid input:
 * expected string, received undefined"). Installed once as zod's global error map, which a
 * schema's own message (e.g. "Expected 4 digits") still overrides.
 */
import { z } from "zod";

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
  bigint: "a number",
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: "an id (UUID)",
  guid: "an id (UUID)",
  email: "an email address",
  url: "a URL",
  date: "a date YYYY-MM-DD",
  datetime: "an ISO 8601 timestamp",
  time: "a time HH:MM",
  regex: "a value in the documented format",
};

function typeOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "number" && !Number.isInteger(input)) return "a decimal number";
  return TYPE_NAMES[typeof input] ?? typeof input;
}

function sizeUnit(origin: string | undefined, n: number): string {
  if (origin === "string") return n === 1 ? "character" : "characters";
  if (origin === "array" || origin === "set") return n === 1 ? "item" : "items";
  return "";
}

function bound(issue: { origin?: string; inclusive?: boolean }, n: number, side: "min" | "max") {
  const unit = sizeUnit(issue.origin, n);
  if (unit) return `${side === "min" ? "At least" : "At most"} ${n} ${unit}`;
  if (issue.inclusive === false) return `${side === "min" ? "More than" : "Less than"} ${n}`;
  return `${side === "min" ? "At least" : "At most"} ${n}`;
}

/** The message for one issue, or undefined to keep zod's own. */
export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "Required";
      const expected = TYPE_NAMES[issue.expected as string] ?? String(issue.expected);
      return `Expected ${expected}, got ${typeOf(issue.input)}`;
    }
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string" && minimum === 1) return "Must not be empty";
      if (issue.origin === "array" && minimum === 1) return "At least one item";
      return bound(issue, minimum, "min");
    }
    case "too_big":
      return bound(issue, Number(issue.maximum), "max");
    case "invalid_value":
      return issue.values.length === 1
        ? `Expected ${JSON.stringify(issue.values[0])}`
        : `Expected one of: ${issue.values.map((v: unknown) => String(v)).join(", ")}`;
    case "invalid_format":
      return `Expected ${FORMAT_NAMES[issue.format] ?? `a value in the ${issue.format} format`}`;
    case "not_multiple_of":
      return `Expected a multiple of ${issue.divisor}`;
    case "invalid_union":
      // A field of several forms (money: "19.99" or 19.99) that is missing is just missing.
      return issue.input === undefined ? "Required" : "Not one of the accepted forms of this field";
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });
