/**
 * Progress of long work on a terminal (cli-progress, drawn on stderr): a bar when the work
 * reports done/total, an elapsed-time line while waiting for a server. Nothing is drawn when
 * stderr is not a terminal: commands print their one-line summary instead.
 */
import cliProgress from "cli-progress";
import { BadInputError } from "../domain/errors.ts";
import { UsageError } from "./_errors.ts";

/** The part of cli-progress's SingleBar used here (the package ships no types). */
interface SingleBar {
  start(total: number, start: number, payload?: Record<string, unknown>): void;
  update(value: number, payload?: Record<string, unknown>): void;
  setTotal(total: number): void;
  stop(): void;
}

interface CliProgress {
  SingleBar: new (options: Record<string, unknown>, preset?: unknown) => SingleBar;
  Presets: { shades_classic: unknown; legacy: unknown };
}

const progress = cliProgress as unknown as CliProgress;

export interface Progress {
  update(done: number, total: number): void;
  /** Removes nothing: leaves the final bar on its line and moves to the next one. */
  stop(): void;
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

function bar(format: string): SingleBar {
  return new progress.SingleBar({
    stream: {
      // cli-progress writes to a Node stream; Deno's stderr takes the same calls.
      write: (text: string) => Deno.stderr.writeSync(new TextEncoder().encode(text)),
      isTTY: true,
      columns: terminalColumns(),
    },
    format,
    hideCursor: true,
    barsize: 30,
    fps: 10,
    etaBuffer: 20,
  }, progress.Presets.legacy);
}

/** A bar `label [=====-----] 40% 400/1000` on a terminal; undefined when stderr is not one. */
export function progressBar(label: string): Progress | undefined {
  if (!Deno.stderr.isTerminal()) return undefined;
  let current: SingleBar | undefined;
  return {
    update(done, total) {
      // Nothing to do draws no bar (a full "0/0" bar told people nothing).
      if (total === 0) return;
      if (!current) {
        current = bar(`${label} [{bar}] {percentage}% {value}/{total}`);
        current.start(total, done);
      } else current.update(done);
    },
    stop() {
      current?.stop();
    },
  };
}

/** `label … 3s` redrawn while `work` runs (a server call that reports no progress). */
export async function withActivity<T>(label: string, work: () => Promise<T>): Promise<T> {
  if (!Deno.stderr.isTerminal()) return await work();
  const line = bar(`${label} … {duration}s`);
  line.start(1, 0);
  try {
    return await work();
  } finally {
    line.stop();
  }
}

/**
 * Long work on the database directly (a cron job): a bar on a terminal while `work` reports
 * its progress, stopped however it ends; input the work refuses as invalid (a date the user
 * typed wrong) is a usage error, exit 2.
 */
export async function withProgressBar<T>(
  label: string,
  work: (update: (done: number, total: number) => void) => Promise<T>,
): Promise<T> {
  const current = progressBar(label);
  try {
    return await work((done, total) => current?.update(done, total));
  } catch (error) {
    if (error instanceof BadInputError && error.code === "validation_failed") {
      throw new UsageError(error.issues?.[0]?.message ?? error.message);
    }
    throw error;
  } finally {
    current?.stop();
  }
}
