/**
 * `ops lessons generate [--from D] [--to D] [--slot ID]`: generates lesson sessions (for cron;
 * idempotent) on the database, or through the server that holds it
 * (`POST /lesson-sessions/generate`). A progress bar on a terminal, a one-line summary always;
 * a window with nothing to generate says so (and why) instead of drawing an empty bar.
 */
import type { Command } from "commander";
import { generateSessions } from "../../app/lessons/generate_sessions.ts";
import {
  generateSessionsBody,
  type GenerateSessionsResult,
} from "../../app/lessons/lesson_schemas.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput } from "../_input.ts";
import { type Column, outputFormat, printRows, printText, withFormatOptions } from "../_output.ts";
import { withActivity, withProgressBar } from "../_progress.ts";
import { run } from "../_transport.ts";

interface GenerateOptions {
  from?: string;
  to?: string;
  slot?: string;
  json?: boolean;
  format?: string;
}

type Result = GenerateSessionsResult & { from?: string; to?: string };

/** The one-line summary of a run (also when there was nothing to do, with the reason). */
export function summary(result: Result): string {
  const window = result.from && result.to ? `${result.from}..${result.to}` : "the default window";
  const { existing, blockedDates, closures } = result.skipped;
  if (result.created + existing === 0) {
    const why = blockedDates + closures > 0
      ? `every lesson falls on an instructor's blocked date (${blockedDates}) or a store ` +
        `closure (${closures})`
      : "no active enrollment has a lesson in it (enroll students in a schedule slot first)";
    return `Nothing to generate for ${window}: ${why}.`;
  }
  return `Sessions ${window}: created ${result.created}, skipped ${existing} existing, ` +
    `${blockedDates} blocked dates, ${closures} closures.`;
}

const COLUMNS: Column<Result>[] = [
  { header: "FROM", value: (r) => r.from },
  { header: "TO", value: (r) => r.to },
  { header: "CREATED", value: (r) => r.created, align: "right" },
  { header: "EXISTING", value: (r) => r.skipped.existing, align: "right" },
  { header: "BLOCKED DATES", value: (r) => r.skipped.blockedDates, align: "right" },
  { header: "CLOSURES", value: (r) => r.skipped.closures, align: "right" },
];

export function registerLessonsCommands(program: Command): void {
  const lessons = program.command("lessons").description("Lesson scheduling tasks");

  const generate = withFormatOptions(
    lessons.command("generate")
      .description(
        "Create the lesson sessions of a window (default: today .. today + " +
          "lessonSessionWindowDays, store time zone); idempotent, safe to run from cron",
      )
      .option("--from <date>", "first date, YYYY-MM-DD (inclusive)")
      .option("--to <date>", "last date, YYYY-MM-DD (inclusive; at most 366 days after --from)")
      .option("--slot <id>", "only this schedule slot"),
  ).action(async (options: GenerateOptions) => {
    const format = outputFormat(options);
    const input = parseInput(generateSessionsBody, {
      from: options.from,
      to: options.to,
      slotId: options.slot,
    }, { slotId: "--slot" }) ?? {};
    const result = await run<Result>({
      direct: (deps) =>
        withProgressBar(
          "Generating sessions",
          (update) => generateSessions(deps, input, (p) => update(p.done, p.total)),
        ),
      server: async (api) => {
        const counts = await withActivity(
          `Generating sessions on ${api.server}`,
          () =>
            api.request<GenerateSessionsResult>("POST", "/lesson-sessions/generate", {
              body: input,
            }),
        );
        return { ...counts, from: input.from, to: input.to };
      },
    });
    if (format === "table") printText(summary(result));
    else printRows([result], COLUMNS, format, { json: result });
  });
  describe(generate, {
    examples: [
      "deno task ops lessons generate",
      "deno task ops lessons generate --from 2026-12-01 --to 2026-12-31 --json",
      "0 3 * * * cd /srv/shop && deno task ops lessons generate   # crontab: nightly",
    ],
    env: BUSINESS_ENV,
  });
}
