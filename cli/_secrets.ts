/**
 * Reading passwords for the CLI: from stdin (`--password-stdin`, one trailing newline
 * dropped) or prompted on the terminal without echo.
 */
import { CliError, UsageError } from "./_errors.ts";

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
      if (byte === 3) throw new CliError("Cancelled"); // Ctrl-C
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
