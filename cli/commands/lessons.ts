/**
 * `ops lessons generate [--from D] [--to D] [--slot ID] [--json]`: generates lesson sessions
 * on the database directly (for cron; idempotent). A progress bar on a terminal, a one-line
 * summary otherwise. Exit 0 success, 1 failure, 2 usage error.
 */
import type { Command } from "commander";
import { BadInputError } from "../../domain/errors.ts";
import { type GenerateProgress, generateSessions } from "../../app/lessons/generate_sessions.ts";
import { generateSessionsBody } from "../../app/lessons/lesson_schemas.ts";
import { printJson, UsageError } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";

const BAR_WIDTH = 30;

/** A one-line progress bar redrawn in place on stderr (only when stderr is a terminal). */
export function progressBar(write: (text: string) => void) {
  let last = -1;
  return {
    update({ done, total }: GenerateProgress) {
      const ratio = total === 0 ? 1 : done / total;
      const percent = Math.floor(ratio * 100);
      if (percent === last) return;
      last = percent;
      const filled = Math.round(ratio * BAR_WIDTH);
      write(
        `\rGenerating sessions [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ` +
          `${String(percent).padStart(3)}% ${done}/${total}`,
      );
    },
    finish() {
      if (last >= 0) write("\n");
    },
  };
}

interface GenerateOptions {
  from?: string;
  to?: string;
  slot?: string;
  json?: boolean;
}

export function registerLessonsCommands(program: Command): void {
  const lessons = program.command("lessons").description("Lesson scheduling tasks");

  lessons.command("generate")
    .description(
      "Create the lesson sessions of a window (default: today .. today + " +
        "lessonSessionWindowDays, store time zone); idempotent, safe to run from cron",
    )
    .option("--from <date>", "first date, YYYY-MM-DD (inclusive)")
    .option("--to <date>", "last date, YYYY-MM-DD (inclusive; at most 366 days after --from)")
    .option("--slot <id>", "only this schedule slot")
    .option("--json", "print the result as JSON")
    .action(async (options: GenerateOptions) => {
      const parsed = generateSessionsBody.safeParse({
        from: options.from,
        to: options.to,
        slotId: options.slot,
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const flag = issue?.path[0] === "slotId" ? "slot" : String(issue?.path[0] ?? "");
        throw new UsageError(`--${flag}: ${issue?.message ?? "invalid value"}`);
      }
      const encoder = new TextEncoder();
      const bar = Deno.stderr.isTerminal() && !options.json
        ? progressBar((text) => Deno.stderr.writeSync(encoder.encode(text)))
        : undefined;
      const result = await withRuntime(
        { whenLocked: "call POST /v1/lesson-sessions/generate on the running server" },
        async (deps) => {
          try {
            return await generateSessions(deps, parsed.data ?? {}, bar && ((p) => bar.update(p)));
          } catch (error) {
            // A window the user typed wrong is a usage error (exit 2).
            if (error instanceof BadInputError && error.code === "validation_failed") {
              throw new UsageError(error.issues?.[0]?.message ?? error.message);
            }
            throw error;
          } finally {
            bar?.finish();
          }
        },
      );
      if (options.json) {
        printJson(result);
        return;
      }
      const { skipped } = result;
      console.log(
        `Sessions ${result.from}..${result.to}: created ${result.created}, skipped ` +
          `${skipped.existing} existing, ${skipped.blockedDates} blocked dates, ` +
          `${skipped.closures} closures`,
      );
    });
}
