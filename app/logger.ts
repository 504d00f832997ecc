/**
 * Logging, one line per entry on stdout: a JSON object (for log collectors), or a readable
 * line on a terminal (`12:04:05.123 INFO  listening url=…`). Callers pass only safe fields:
 * never bodies, passwords, PINs, tokens, reset links or secrets.
 */
import type { LogFormatSetting, LogLevel } from "./config.ts";
import { type Clock, systemClock } from "./ids.ts";

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFormat = "json" | "text";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Default `json`. */
  format?: LogFormat;
  /** `text` only: colour the level (default false). */
  color?: boolean;
}

/**
 * `LOG_FORMAT` → the format to write: `auto` is `text` when stdout is a terminal, `json`
 * otherwise (a pipe, a file, a container's log collector).
 */
export function resolveLogFormat(setting: LogFormatSetting, isTerminal: boolean): LogFormat {
  if (setting === "auto") return isTerminal ? "text" : "json";
  return setting;
}

/** Lines at `minimum` and above go to `write`, stamped with `clock`'s time. */
export function createLogger(
  minimum: LogLevel,
  write: (line: string) => void = (line) => console.log(line),
  clock: Clock = systemClock,
  options: LoggerOptions = {},
): Logger {
  const threshold = LEVELS[minimum];
  const format = options.format === "text"
    ? (time: Date, level: LogLevel, message: string, fields: Record<string, unknown>) =>
      textLine(time, level, message, fields, options.color ?? false)
    : jsonLine;
  const log = (level: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[level] < threshold) return;
    write(format(clock.now(), level, message, fields));
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function jsonLine(
  time: Date,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown>,
): string {
  return JSON.stringify({ time: time.toISOString(), level, msg: message, ...fields });
}

const LEVEL_LABELS: Record<LogLevel, string> = {
  debug: "DEBUG",
  info: "INFO ",
  warn: "WARN ",
  error: "ERROR",
};
/** SGR codes: grey, green, yellow, red. */
const LEVEL_COLORS: Record<LogLevel, string> = { debug: "90", info: "32", warn: "33", error: "31" };

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * `HH:MM:SS.mmm LEVEL message key=value …` in local time. A request reads
 * `GET /v1/health 200 1.2ms`; values with spaces or quotes are JSON-quoted; a multi-line
 * value (a stack) follows on its own indented lines.
 */
function textLine(
  time: Date,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown>,
  color: boolean,
): string {
  const clock = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${
    pad(time.getMilliseconds(), 3)
  }`;
  const label = color
    ? `\x1b[${LEVEL_COLORS[level]}m${LEVEL_LABELS[level]}\x1b[0m`
    : LEVEL_LABELS[level];
  const rest = { ...fields };
  let head = message;
  if (typeof rest["method"] === "string" && typeof rest["path"] === "string" && "status" in rest) {
    head = `${rest["method"]} ${rest["path"]} ${rest["status"]}` +
      (typeof rest["durationMs"] === "number" ? ` ${rest["durationMs"]}ms` : "");
    if (message !== "request") head = `${message}: ${head}`;
    for (const key of ["method", "path", "status", "durationMs"]) delete rest[key];
  }
  const pairs: string[] = [];
  const blocks: string[] = [];
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (typeof value === "string" && value.includes("\n")) {
      blocks.push(`  ${key}:\n` + value.split("\n").map((l) => `    ${l}`).join("\n"));
      continue;
    }
    pairs.push(`${key}=${textValue(value)}`);
  }
  const line = [`${clock} ${label} ${head}`, ...pairs].join(" ");
  return blocks.length ? `${line}\n${blocks.join("\n")}` : line;
}

function textValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"'=]+$/.test(value) ? value : JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value) ?? String(value);
}

/** A logger that keeps its lines in memory (tests assert on what would have been logged). */
export function createMemoryLogger(clock: Clock = systemClock): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", (line) => lines.push(line), clock), { lines });
}
