/**
 * Confirmation of destructive commands (API §16: `migrate down`, module licence changes, later
 * `restore --force`): asked on a terminal, `--yes` needed otherwise (exit 2 without it).
 */
import { UsageError } from "./_errors.ts";
import { CancelledError, readAnswer } from "./_prompt.ts";

/**
 * Refuses at once (before any work) when a confirmation will be needed and cannot be asked:
 * stdin is not a terminal and `--yes` was not given.
 */
export function assertCanConfirm(options: { yes?: boolean; command: string }): void {
  if (options.yes || Deno.stdin.isTerminal()) return;
  throw new UsageError(
    `\`${options.command}\` asks for confirmation and stdin is not a terminal: ` +
      "add --yes to confirm",
  );
}

/**
 * Goes on when `yes` was given or the user answers yes on the terminal; a "no" is a failure
 * (exit 1, nothing changed), Ctrl-C exits 130; without a terminal and without `--yes`, a usage
 * error (exit 2).
 */
export async function confirm(
  question: string,
  options: { yes?: boolean; command: string },
): Promise<void> {
  if (options.yes) return;
  assertCanConfirm(options);
  const answer = (await readAnswer(`${question} [y/N] `)).toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new CancelledError();
}
