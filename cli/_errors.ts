/**
 * The two ways an `ops` command fails on purpose: used wrongly (exit 2) or failed for a reason
 * the user can fix (exit 1). Messages are one line that names the fix.
 */

/** A command used wrongly: a bad or missing option or argument (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A command that could not do its work; the message says what to do about it (exit 1). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "CliError";
    this.exitCode = options.exitCode ?? 1;
  }
}

/** The message of anything thrown, on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
