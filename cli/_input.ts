/** Checking what the user typed with the same zod schemas as the API (a failure is exit 2). */
import type { z } from "zod";
import { UsageError } from "./_errors.ts";

/**
 * `schema.parse(value)`, or a usage error naming the option: `flags` maps a field of the
 * schema to the option the user typed (`{ slotId: "--slot" }`); others are `--field`.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  flags: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(
    parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? "");
      const flag = flags[field] ?? (field ? `--${field}` : "input");
      return `${flag}: ${issue.message}`;
    }).join("; "),
  );
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
