/**
 * Confirmation of destructive commands (API §16: `migrate down`, module licence changes, later
 * `restore --force`): asked on a terminal, `--yes` needed otherwise (exit 2 without it).
 */
import { CliError, UsageError } from "./_errors.ts";

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

/** Reads one line typed on the terminal (cooked mode: the terminal echoes and edits it). */
async function readLine(): Promise<string> {
  const bytes: number[] = [];
  const buffer = new Uint8Array(256);
  while (true) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    const chunk = buffer.subarray(0, n);
    const newline = chunk.indexOf(10);
    if (newline >= 0) {
      bytes.push(...chunk.subarray(0, newline));
      break;
    }
    bytes.push(...chunk);
  }
  return new TextDecoder().decode(new Uint8Array(bytes)).trim();
}

/**
 * Goes on when `yes` was given or the user answers yes on the terminal; a "no" is a failure
 * (exit 1, nothing changed); without a terminal and without `--yes`, a usage error (exit 2).
 */
export async function confirm(
  question: string,
  options: { yes?: boolean; command: string },
): Promise<void> {
  if (options.yes) return;
  assertCanConfirm(options);
  Deno.stderr.writeSync(new TextEncoder().encode(`${question} [y/N] `));
  const answer = (await readLine()).toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new CliError("Cancelled: nothing was changed");
}
