/**
 * Structured JSON logging, one object per line on stdout. Callers pass only safe fields:
 * never bodies, passwords, PINs, tokens, reset links or secrets.
 */
import type { LogLevel } from "./config.ts";
import { type Clock, systemClock } from "./ids.ts";

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Lines at `minimum` and above go to `write`, stamped with `clock`'s time. */
export function createLogger(
  minimum: LogLevel,
  write: (line: string) => void = (line) => console.log(line),
  clock: Clock = systemClock,
): Logger {
  const threshold = LEVELS[minimum];
  const log = (level: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[level] < threshold) return;
    write(JSON.stringify({ time: clock.now().toISOString(), level, msg: message, ...fields }));
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** A logger that keeps its lines in memory (tests assert on what would have been logged). */
export function createMemoryLogger(clock: Clock = systemClock): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", (line) => lines.push(line), clock), { lines });
}
