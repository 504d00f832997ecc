/**
 * Asking on the terminal, one way for every prompt of `ops` (confirmations, `ops setup`'s
 * questions; passwords without echo are cli/_secrets.ts, which shares the interruption).
 *
 * - A line is read in cooked mode: the terminal echoes and edits it; what follows its newline
 *   in the same read is kept for the next question (typed ahead, or pasted).
 * - Ctrl-C at any prompt stops the command with exit 130 (128 + SIGINT, what a shell reports
 *   for an interrupted command), unwinding so an open database is closed; nothing asked for
 *   has been done yet. Ctrl-D (end of input) cancels: exit 1, nothing changed.
 * - Questions and notes go to stderr; stdout stays for data.
 */
import { terminalText } from "../domain/printing/terminal_text.ts";
import { CliError } from "./_errors.ts";

/** 128 + SIGINT: the exit code of a command interrupted by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** Ctrl-C at a prompt: exit 130, nothing changed. */
export class InterruptedError extends CliError {
  constructor() {
    super("Interrupted: nothing was changed", { exitCode: EXIT_INTERRUPTED });
    this.name = "InterruptedError";
  }
}

/** Ctrl-D (end of input) at a prompt: exit 1, nothing changed. */
export class CancelledError extends CliError {
  constructor() {
    super("Cancelled: nothing was changed");
    this.name = "CancelledError";
  }
}

/** Writes a question or a note to stderr (the terminal), made terminal-safe. */
export function say(text: string): void {
  const bytes = new TextEncoder().encode(terminalText(text));
  let written = 0;
  while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
}

/**
 * Runs `work` (a question and the read of its answer) so that Ctrl-C rejects it with
 * {@link InterruptedError} instead of killing the process: the caller unwinds and closes
 * what it opened. The listener is in place before `work` shows anything, so a Ctrl-C typed
 * the moment the question appears is caught too. The interrupted read stays pending; the
 * command ends anyway.
 */
export async function interruptible<T>(work: () => Promise<T>): Promise<T> {
  let onSignal: () => void = () => {};
  const interrupted = new Promise<never>((_, reject) => {
    onSignal = () => {
      say("\n");
      reject(new InterruptedError());
    };
  });
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    return await Promise.race([work(), interrupted]);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}

/** Bytes read past the last newline, for the next line. */
const pending: number[] = [];

/** One line from stdin without its line end; undefined at end of input. */
async function readLineBytes(): Promise<string | undefined> {
  const buffer = new Uint8Array(256);
  while (true) {
    const newline = pending.indexOf(10);
    if (newline >= 0) {
      const line = pending.splice(0, newline + 1).slice(0, newline);
      return new TextDecoder().decode(new Uint8Array(line)).replace(/\r$/, "");
    }
    const n = await Deno.stdin.read(buffer);
    if (n === null) {
      if (pending.length === 0) return undefined;
      return new TextDecoder().decode(new Uint8Array(pending.splice(0)));
    }
    pending.push(...buffer.subarray(0, n));
  }
}

/**
 * Shows `question` and reads the answer (trimmed). Ctrl-C: {@link InterruptedError}; end of
 * input: {@link CancelledError}.
 */
export async function readAnswer(question: string): Promise<string> {
  const line = await interruptible(() => {
    say(question);
    return readLineBytes();
  });
  if (line === undefined) {
    say("\n");
    throw new CancelledError();
  }
  return line.trim();
}

export interface AskOptions<T> {
  /**
   * Shown in brackets and taken for an empty answer; `""` makes an empty answer acceptable
   * (an optional field); without it an answer is needed.
   */
  default?: string;
  /** The value of an answer, or what is wrong with it (said, then asked again). */
  parse(answer: string): { value: T } | { problem: string };
}

/** Asks until the answer parses: `Question [default]: `; a wrong answer is said, then asked again. */
export async function ask<T>(question: string, options: AskOptions<T>): Promise<T> {
  const shown = options.default ? `${question} [${options.default}]: ` : `${question}: `;
  while (true) {
    const typed = await readAnswer(shown);
    const answer = typed === "" ? options.default : typed;
    if (answer === undefined) {
      say("  An answer is needed (Ctrl-C stops).\n");
      continue;
    }
    const parsed = options.parse(answer);
    if ("value" in parsed) return parsed.value;
    say(`  ${parsed.problem}\n`);
  }
}
