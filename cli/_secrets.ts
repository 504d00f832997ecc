/**
 * Reading passwords for the CLI: from stdin (`--password-stdin`, one trailing newline
 * dropped) or prompted on the terminal without echo. Ctrl-C at a prompt exits 130 and Ctrl-D
 * cancels, as at every prompt (cli/_prompt.ts).
 */
import { UsageError } from "./_errors.ts";
import { CancelledError, InterruptedError, say } from "./_prompt.ts";

export async function readStdinSecret(): Promise<string> {
  const text = await new Response(Deno.stdin.readable).text();
  const value = text.replace(/\r?\n$/, "");
  if (value === "") throw new UsageError("Nothing was read from stdin");
  return value;
}

/** Prompts on the terminal with echo off; refuses when stdin is not a terminal. */
export async function promptSecret(question: string): Promise<string> {
  if (!Deno.stdin.isTerminal()) {
    throw new UsageError("stdin is not a terminal: pass the password with --password-stdin");
  }
  const encoder = new TextEncoder();
  // Echo off before the prompt shows: an answer typed (or pasted) at once is never echoed.
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buffer = new Uint8Array(1);
  try {
    await Deno.stderr.write(encoder.encode(question));
    while (true) {
      const n = await Deno.stdin.read(buffer);
      if (n === null) break;
      const byte = buffer[0]!;
      if (byte === 3) throw new InterruptedError(); // Ctrl-C (raw mode: no SIGINT)
      if (byte === 4) {
        if (bytes.length === 0) throw new CancelledError(); // Ctrl-D on an empty line
        continue;
      }
      if (byte === 13 || byte === 10) break;
      if (byte === 127 || byte === 8) bytes.pop();
      else bytes.push(byte);
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(encoder.encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

export function readSecret(fromStdin: boolean | undefined, question: string): Promise<string> {
  return fromStdin ? readStdinSecret() : promptSecret(question);
}

/**
 * A new secret typed twice on the terminal (without echo). While `problemOf` finds something
 * wrong with the first entry (too short, too long), it is said and asked again; two entries
 * that differ are refused with `differ()`.
 */
export async function promptNewSecret(
  question: string,
  problemOf: (secret: string) => string | undefined,
  differ: () => Error,
): Promise<string> {
  while (true) {
    const first = await promptSecret(question);
    const problem = problemOf(first);
    if (problem) {
      say(`  ${problem}: try again (Ctrl-C stops).\n`);
      continue;
    }
    if (await promptSecret("Repeat it: ") !== first) throw differ();
    return first;
  }
}
