/**
 * The README's shell session runs as written: the ```sh blocks of its narrative, from "First
 * steps" through "A shop's day", concatenated in order into one `bash -euo pipefail` script, run
 * against a real server on a fresh data directory (no user yet). A README command that no longer
 * matches the code fails here. A block right after `<!-- readme-test: skip -->` is left out
 * (the interactive setup; the generated client, which has a test of its own).
 */
import { assertEquals, assertMatch, assertStringIncludes } from "./_helpers/assert.ts";
import {
  childEnv,
  embeddedRunTest,
  extractTemplateDataDir,
  removeDir,
  startServer,
} from "./_helpers/processes.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const FIRST_SECTION = "## First steps";
const LAST_SECTION = "## A shop's day";
/** Put before a block the test leaves out, with the reason: `<!-- readme-test: skip (why) -->`. */
const SKIP = "<!-- readme-test: skip";
/** The address the README's commands name: the server of `deno task start`. */
const README_URL = "http://127.0.0.1:8000";

/**
 * The shell blocks of the sections from FIRST_SECTION through LAST_SECTION (its subsections
 * included), in order, without the skipped ones.
 */
export function readmeShellBlocks(readme: string): string[] {
  const lines = readme.split("\n");
  const start = lines.findIndex((line) => line.startsWith(FIRST_SECTION));
  const last = lines.findIndex((line) => line.startsWith(LAST_SECTION));
  if (start < 0 || last < 0) {
    throw new Error(`The README lacks ${FIRST_SECTION} or ${LAST_SECTION}`);
  }
  const after = lines.findIndex((line, i) => i > last && line.startsWith("## "));
  const blocks: string[] = [];
  let skipNext = false;
  for (let i = start; i < (after < 0 ? lines.length : after); i++) {
    const line = lines[i]!.trim();
    if (line.startsWith(SKIP)) skipNext = true;
    if (line !== "```sh") continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    if (end < 0) throw new Error(`The README's block at line ${i + 1} is not closed`);
    if (!skipNext) blocks.push(lines.slice(i + 1, end).join("\n"));
    skipNext = false;
    i = end;
  }
  return blocks;
}

Deno.test("readmeShellBlocks: the narrative's blocks in order, skipped ones left out", () => {
  const readme = [
    "## Run it",
    "```sh",
    "deno task start",
    "```",
    "## First steps: login",
    "```sh",
    "echo one",
    "```",
    `${SKIP} (it asks) -->`,
    "",
    "```sh",
    "echo skipped",
    "```",
    "```sh",
    "echo two",
    "```",
    "## A shop's day",
    "### Lessons",
    "```sh",
    "echo three",
    "```",
    "## Later",
    "```sh",
    "echo never",
    "```",
  ].join("\n");
  assertEquals(readmeShellBlocks(readme), ["echo one", "echo two", "echo three"]);
});

embeddedRunTest("the README's shell session runs as written against a fresh server", async () => {
  const blocks = readmeShellBlocks(await Deno.readTextFile(`${ROOT}README.md`));
  const dataDir = await extractTemplateDataDir();
  const work = await Deno.makeTempDir({ prefix: "shop-readme-" });
  const server = await startServer({ dataDir });
  try {
    const script = blocks.join("\n\n").replaceAll(README_URL, server.url);
    await Deno.writeTextFile(`${work}/readme.sh`, script);
    const denoDir = Deno.execPath().replace(/\/[^/]*$/, "");
    const env = childEnv(dataDir, {
      OPS_CONFIG_DIR: `${work}/ops`,
      // The shop's machine keeps the shop's time: `date +%F` is the store's today.
      TZ: "America/Chicago",
      PATH: `${denoDir}:${Deno.env.get("PATH") ?? ""}`,
    });
    const output = await new Deno.Command("bash", {
      args: ["-euo", "pipefail", "-x", `${work}/readme.sh`],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // A hanging command (a prompt, a server that stopped answering) ends the test, not CI.
      signal: AbortSignal.timeout(90_000),
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assertEquals(
      output.code,
      0,
      `The README's script failed:\n--- stdout (end)\n${stdout.slice(-4000)}\n--- stderr (end)\n${
        stderr.slice(-6000)
      }`,
    );
    // What the README's comments promise, from a few of its commands.
    assertStringIncludes(stdout, "Logged in to ");
    assertMatch(stdout, /Sessions the default window: created 5, skipped 0 existing/);
    assertStringIncludes(stdout, '"status":"attended","notes":"C, G and D; strum in eighths"');
    assertStringIncludes(stdout, '"type":"refund"');
    assertStringIncludes(stdout, '"status":"voided"');
    assertMatch(stdout, /check\s+1\s+99\.90\n/); // the exempt school's order, no tax
    assertMatch(stdout, /Z report of register Front, cashier Olive Owner: opened .*, closed /);
    assertMatch(stdout, /Cash out: Postage\s+12\.40\n/);
    assertMatch(stdout, /Over\/short\s+0\.00\n/);
    assertMatch(stdout, /Voided\s+1\s+10\.81\nby Olive Owner\s+1\s+10\.81\n/);
    assertStringIncludes(stdout, '"name":"Harmony Music","timezone":"America/Chicago"');
    assertStringIncludes(stdout, '"lessonSessionWindowDays":42');
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await removeDir(work);
    await removeDir(dataDir);
  }
});
