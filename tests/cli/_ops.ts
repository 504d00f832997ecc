/**
 * Running `ops` as a user does, for the tests in this folder: a child process on a data
 * directory and an `ops login` config directory of the test's own, with stdin piped or null,
 * or on a pseudo-terminal (`script -qec`, util-linux) for prompts and progress bars.
 */
import {
  childEnv,
  type CliResult,
  prepareDataDir,
  removeDir,
  runOps,
} from "../_helpers/processes.ts";
import { testConfig } from "../_helpers/test_app.ts";
import { createDeps } from "../../app/create_deps.ts";
import { openDatabase } from "../../app/db/connect.ts";
import type { AppDeps } from "../../app/deps.ts";
import { createMemoryLogger } from "../../app/logger.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface OpsPlace {
  dataDir: string;
  /** OPS_CONFIG_DIR: where `ops login` keeps its token. */
  configDir: string;
}

export interface OpsOptions {
  env?: Record<string, string>;
  stdin?: string;
  /** The working directory (default: the project's). */
  cwd?: string;
}

/** `deno run -A cli/main.ts ...args` in `place`, never touching the real ~/.config. */
export async function ops(
  place: OpsPlace,
  args: string[],
  options: OpsOptions = {},
): Promise<CliResult> {
  const result = await runOps(args, {
    dataDir: place.dataDir,
    stdin: options.stdin,
    cwd: options.cwd,
    env: { OPS_CONFIG_DIR: place.configDir, ...options.env },
  });
  // Deno's own note when several processes start at once (not the CLI's output).
  return { ...result, stderr: result.stderr.replace(DENO_LOCK_NOTE, "") };
}

const DENO_LOCK_NOTE = /^Blocking waiting for file lock on [^\n]*\n/gm;

/**
 * Runs `work` with the app's dependencies over the data directory `dataDir`, opened directly
 * (no server may hold it), then closes it: how these tests set up what `ops` then reads.
 */
export async function withDataDir<T>(
  dataDir: string,
  work: (deps: AppDeps) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const handle = await openDatabase({ dataDir });
  try {
    return await work(createDeps({
      config: testConfig(env),
      db: handle.db,
      dbKind: "embedded",
      logger: createMemoryLogger(),
    }));
  } finally {
    await handle.close();
  }
}

export async function newPlace(prefix = "shop-ops-"): Promise<OpsPlace> {
  const dataDir = await Deno.makeTempDir({ prefix });
  return { dataDir, configDir: `${dataDir}/ops-config` };
}

/** Whether util-linux `script` is here to give a child a pseudo-terminal. */
export const HAS_SCRIPT: boolean = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

export interface TerminalResult {
  code: number;
  /** Everything the terminal showed (stdout and stderr together, CRLF line ends). */
  output: string;
}

/** What to type on the terminal once `after` shows (after what the previous key waited for). */
export interface Keystrokes {
  after: string;
  /** Typed as is: end an answer with "\r" (Enter); "\x03" is Ctrl-C, "\x04" Ctrl-D. */
  type: string;
}

/**
 * Runs `ops ...args` on a pseudo-terminal; when `answer` is given, types it (and Enter) once
 * `waitFor` appears on the screen (the prompt), then closes stdin. `keys` types several
 * answers in turn, each once its prompt shows after the previous one.
 */
export async function opsOnTerminal(
  place: OpsPlace,
  args: string[],
  options: {
    env?: Record<string, string>;
    waitFor?: string;
    answer?: string;
    keys?: Keystrokes[];
  } = {},
): Promise<TerminalResult> {
  const command = [Deno.execPath(), "run", "-A", "cli/main.ts", ...args].map(shellQuote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd: ROOT,
    env: childEnv(place.dataDir, {
      OPS_CONFIG_DIR: place.configDir,
      TERM: "xterm",
      ...options.env,
    }),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const keys: Keystrokes[] = [...(options.keys ?? [])];
  if (options.answer !== undefined) {
    keys.unshift({ after: options.waitFor ?? "[y/N]", type: `${options.answer}\r` });
  }
  let output = "";
  let seen = 0;
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) {
      output += decoder.decode(chunk, { stream: true });
      let at;
      while (keys.length > 0 && (at = output.indexOf(keys[0]!.after, seen)) >= 0) {
        const key = keys.shift()!;
        seen = at + key.after.length;
        await writer.write(new TextEncoder().encode(key.type));
      }
    }
  })();
  const stderr = new Response(child.stderr).text();
  const status = await child.status;
  await reading;
  await writer.close().catch(() => {});
  output += await stderr;
  return { code: status.code, output };
}

/** Runs several independent commands at once (none may open the same database): name → result. */
export async function opsAll<K extends string>(
  place: OpsPlace,
  commands: Record<K, string[]>,
  options: OpsOptions = {},
): Promise<Record<K, CliResult>> {
  const names = Object.keys(commands) as K[];
  const results = await Promise.all(names.map((name) => ops(place, commands[name], options)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<K, CliResult>;
}

// ------------------------------------------------------------------ a prepared data directory

/** Whether a process with this pid runs (on Linux; elsewhere: assume it does). */
function isRunning(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

const TMP = Deno.env.get("TMPDIR") ?? "/tmp";
const TEMPLATE_PREFIX = "shop-cli-template-";

/**
 * A migrated and seeded embedded data directory with an admin user (`prepareDataDir`), built
 * once per test run and copied for each caller: migrating PGlite takes seconds, a copy a
 * fraction of one. The test files of a run share the process (and pid), and a template left by
 * an earlier run is removed.
 */
export async function preparedPlace(): Promise<OpsPlace & { adminEmail: string }> {
  const template = `${TMP}/${TEMPLATE_PREFIX}${Deno.pid}`;
  if (await Deno.mkdir(`${template}.building`).then(() => true, () => false)) {
    for (const entry of Deno.readDirSync(TMP)) {
      const pid = Number(/^shop-cli-template-(\d+)/.exec(entry.name)?.[1]);
      if (pid && pid !== Deno.pid && !isRunning(pid)) await removeDir(`${TMP}/${entry.name}`);
    }
    const { dataDir, adminEmail } = await prepareDataDir();
    await Deno.writeTextFile(`${dataDir}/admin-email`, adminEmail);
    await Deno.rename(dataDir, template);
  } else {
    const deadline = Date.now() + 120_000;
    while (!(await Deno.stat(template).then(() => true, () => false))) {
      if (Date.now() > deadline) throw new Error(`The template ${template} was not built in time`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const dataDir = await Deno.makeTempDir({ prefix: "shop-cli-" });
  const copy = await new Deno.Command("cp", { args: ["-a", `${template}/.`, dataDir] }).output();
  if (!copy.success) throw new Error(new TextDecoder().decode(copy.stderr));
  const adminEmail = (await Deno.readTextFile(`${dataDir}/admin-email`)).trim();
  return { dataDir, configDir: `${dataDir}/ops-config`, adminEmail };
}
