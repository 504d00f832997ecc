/**
 * `ops vault status|init|unlock|lock|change-password` against the real server (a child on a
 * free port holding the embedded database), as the owner uses them: `ops login`, then the
 * vault commands with the stored login (or OPS_SERVER/OPS_TOKEN); passwords from
 * `--password-stdin` or typed on a pseudo-terminal without echo (twice for a new one); one
 * line naming the fix for every refusal; exit codes 0/1/2.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import {
  childEnv,
  embeddedRunTest,
  removeDir,
  type ServerProcess,
  startServer,
} from "../_helpers/processes.ts";
import { hashSecret } from "../../app/auth/passwords.ts";
import { HAS_SCRIPT, ops, type OpsPlace, preparedPlace, withDataDir } from "./_ops.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const LOGIN_PASSWORD = "owner login password";
const MASTER = "the shop's master password";
const NEXT = "the shop's next master password";

let place: OpsPlace & { adminEmail: string };
let server: ServerProcess;
let env: Record<string, string>;

embeddedRunTest.beforeAll(async () => {
  place = await preparedPlace();
  await withDataDir(place.dataDir, async ({ db }) => {
    await db.updateTable("users").set({ password_hash: await hashSecret(LOGIN_PASSWORD, 4) })
      .where("email", "=", place.adminEmail).execute();
  });
  server = await startServer({ dataDir: place.dataDir, env: { VAULT_KDF_ITERATIONS: "600000" } });
  env = { PORT: new URL(server.url).port };
});
embeddedRunTest.afterAll(async () => {
  server.kill("SIGTERM");
  await server.status;
  await removeDir(place.dataDir);
});

const onTerminal = { ignore: !HAS_SCRIPT, sanitizeResources: false, sanitizeOps: false };

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/**
 * `ops ...args` on a pseudo-terminal (util-linux `script`), typing each answer (and Enter)
 * once its prompt has appeared after the previous answer; everything the terminal showed.
 */
async function typing(
  args: string[],
  answers: Array<[prompt: string, answer: string]>,
): Promise<{ code: number; output: string }> {
  const command = [Deno.execPath(), "run", "-A", "cli/main.ts", ...args].map(shellQuote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd: ROOT,
    env: childEnv(place.dataDir, { OPS_CONFIG_DIR: place.configDir, TERM: "xterm", ...env }),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let output = "";
  let from = 0;
  let next = 0;
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) {
      output += decoder.decode(chunk, { stream: true });
      const answer = answers[next];
      const at = answer ? output.indexOf(answer[0], from) : -1;
      if (answer && at >= 0) {
        next++;
        from = at + answer[0].length;
        await writer.write(new TextEncoder().encode(`${answer[1]}\r`));
      }
    }
  })();
  const stderr = new Response(child.stderr).text();
  const status = await child.status;
  await reading;
  await writer.close().catch(() => {});
  return { code: status.code, output: output + (await stderr) };
}

async function vault(
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
) {
  return await ops(place, ["vault", ...args], {
    env: { ...env, ...options.env },
    stdin: options.stdin,
  });
}

embeddedRunTest(
  "without a login or a reachable server: one line naming the fix, exit 1",
  async () => {
    const notLoggedIn = await vault(["status"]);
    assertEquals(notLoggedIn.code, 1);
    assertMatch(
      notLoggedIn.stderr,
      /^error: Not logged in to http:\/\/127\.0\.0\.1:\d+: run `ops login --server http:\/\/127\.0\.0\.1:\d+ --email E` \(or set OPS_SERVER and OPS_TOKEN\)/,
    );
    const unreachable = await vault(["unlock", "--password-stdin"], {
      stdin: `${MASTER}\n`,
      env: { OPS_SERVER: "http://127.0.0.1:9", OPS_TOKEN: "token" },
    });
    assertEquals(unreachable.code, 1);
    assertStringIncludes(unreachable.stderr, "Cannot reach the server at http://127.0.0.1:9");
    assertStringIncludes(unreachable.stderr, "OPS_SERVER");
    assertEquals(unreachable.stderr.split("\n").filter(Boolean).length, 1);
  },
);

embeddedRunTest(
  "after `ops login`: status says the vault is not initialized; unlock says what to do",
  async () => {
    const login = await ops(place, [
      "login",
      "--server",
      server.url,
      "--email",
      place.adminEmail,
      "--password-stdin",
    ], { env, stdin: `${LOGIN_PASSWORD}\n` });
    assertEquals(login.code, 0, login.stderr);
    const status = await vault(["status"]);
    assertEquals(status.code, 0, status.stderr);
    assertEquals(
      status.stdout,
      `Vault on ${server.url}: not initialized (set a master password with \`ops vault init\`).\n`,
    );
    const json = await vault(["status", "--json"]);
    assertEquals(JSON.parse(json.stdout), { server: server.url, initialized: false, locked: true });
    const unlock = await vault(["unlock", "--password-stdin"], { stdin: `${MASTER}\n` });
    assertEquals(unlock.code, 1);
    assertEquals(
      unlock.stderr,
      `error: The vault on ${server.url} is not initialized: set its master password with \`ops vault init\`\n`,
    );
  },
);

embeddedRunTest(
  "init refuses a short password (exit 2) and needs a terminal or --password-stdin",
  async () => {
    const short = await vault(["init", "--password-stdin"], { stdin: "too short\n" });
    assertEquals(short.code, 2);
    assertStringIncludes(short.stderr, "The master password needs at least 12 characters");
    const noTerminal = await vault(["init"]);
    assertEquals(noTerminal.code, 2);
    assertStringIncludes(noTerminal.stderr, "--password-stdin");
    const empty = await vault(["init", "--password-stdin"], { stdin: "" });
    assertEquals(empty.code, 2);
  },
);

embeddedRunTest({
  name: "init on a terminal: typed twice without echo; two different answers change nothing",
  ...onTerminal,
  fn: async () => {
    const differ = await typing(["vault", "init"], [
      ["New master password", MASTER],
      ["Repeat it:", `${MASTER}!`],
    ]);
    assertEquals(differ.code, 1, differ.output);
    assertStringIncludes(differ.output, "The two passwords differ: nothing was changed");
    assertEquals(JSON.parse((await vault(["status", "--json"])).stdout).initialized, false);

    const init = await typing(["vault", "init"], [
      ["New master password", MASTER],
      ["Repeat it:", MASTER],
    ]);
    assertEquals(init.code, 0, init.output);
    assertStringIncludes(init.output, `Vault initialized on ${server.url} and unlocked.`);
    assert(!init.output.includes(MASTER), "the password was echoed");
    const again = await vault(["init", "--password-stdin"], { stdin: `${MASTER}\n` });
    assertEquals(again.code, 1);
    assertStringIncludes(again.stderr, "already initialized: unlock it with `ops vault unlock`");
  },
});

embeddedRunTest(
  "lock, a wrong and a right unlock from stdin; status --json and csv follow",
  async () => {
    if (!HAS_SCRIPT) {
      const init = await vault(["init", "--password-stdin"], { stdin: `${MASTER}\n` });
      assertEquals(init.code, 0, init.stderr);
    }
    const locked = await vault(["lock"]);
    assertEquals([locked.code, locked.stdout], [0, `Vault locked on ${server.url}.\n`]);
    const status = await vault(["status"]);
    assertEquals(
      status.stdout,
      `Vault on ${server.url}: locked (open it with \`ops vault unlock\`).\n`,
    );
    const wrong = await vault(["unlock", "--password-stdin"], { stdin: "not the password\n" });
    assertEquals([wrong.code, wrong.stderr], [
      1,
      "error: Wrong master password: the vault stays locked\n",
    ]);
    const unlock = await vault(["unlock", "--password-stdin"], { stdin: `${MASTER}\n` });
    assertEquals([unlock.code, unlock.stdout], [0, `Vault unlocked on ${server.url}.\n`]);
    const csv = await vault(["status", "--format", "csv"]);
    assertEquals(csv.stdout, `server,initialized,locked\r\n${server.url},yes,no\r\n`);
  },
);

embeddedRunTest({
  name: "unlock on a terminal: prompted without echo",
  ...onTerminal,
  fn: async () => {
    await vault(["lock"]);
    const unlock = await typing(["vault", "unlock"], [["Master password:", MASTER]]);
    assertEquals(unlock.code, 0, unlock.output);
    assertStringIncludes(unlock.output, `Vault unlocked on ${server.url}.`);
    assert(
      !unlock.output.includes(MASTER),
      `the password was echoed: ${JSON.stringify(unlock.output)}`,
    );
  },
});

embeddedRunTest(
  "change-password: refused while locked; from stdin (two lines) it re-keys, entries stay",
  async () => {
    await vault(["lock"]);
    const refused = await vault(["change-password", "--password-stdin"], {
      stdin: `${MASTER}\n${NEXT}\n`,
    });
    assertEquals([refused.code, refused.stderr], [
      1,
      `error: The vault on ${server.url} is locked: run \`ops vault unlock\` first\n`,
    ]);
    await vault(["unlock", "--password-stdin"], { stdin: `${MASTER}\n` });
    const oneLine = await vault(["change-password", "--password-stdin"], { stdin: `${MASTER}\n` });
    assertEquals(oneLine.code, 2);
    const wrongCurrent = await vault(["change-password", "--password-stdin"], {
      stdin: `${NEXT}\n${MASTER}\n`,
    });
    assertEquals([wrongCurrent.code, wrongCurrent.stderr], [
      1,
      "error: Wrong current master password: nothing was changed\n",
    ]);
    const changed = await vault(["change-password", "--password-stdin"], {
      stdin: `${MASTER}\n${NEXT}\n`,
    });
    assertEquals(changed.code, 0, changed.stderr);
    assertStringIncludes(changed.stdout, "Master password changed");
    await vault(["lock"]);
    assertEquals((await vault(["unlock", "--password-stdin"], { stdin: `${MASTER}\n` })).code, 1);
    assertEquals((await vault(["unlock", "--password-stdin"], { stdin: `${NEXT}\n` })).code, 0);
  },
);

embeddedRunTest({
  name: "change-password on a terminal: the current one, then the new one twice",
  ...onTerminal,
  fn: async () => {
    const changed = await typing(["vault", "change-password"], [
      ["Current master password:", NEXT],
      ["New master password", MASTER],
      ["Repeat it:", MASTER],
    ]);
    assertEquals(changed.code, 0, changed.output);
    assert(!changed.output.includes(MASTER) && !changed.output.includes(NEXT), changed.output);
    await vault(["lock"]);
    assertEquals((await vault(["unlock", "--password-stdin"], { stdin: `${MASTER}\n` })).code, 0);
    // Put it back for the tests after this one.
    await vault(["change-password", "--password-stdin"], { stdin: `${MASTER}\n${NEXT}\n` });
  },
});

embeddedRunTest("OPS_SERVER and OPS_TOKEN suffice without a stored login", async () => {
  const token = JSON.parse(await Deno.readTextFile(`${place.configDir}/credentials.json`)).token;
  const status = await ops(
    { ...place, configDir: `${place.dataDir}/empty-config` },
    ["vault", "status", "--json"],
    { env: { OPS_SERVER: server.url, OPS_TOKEN: token } },
  );
  assertEquals(status.code, 0, status.stderr);
  assertEquals(JSON.parse(status.stdout).server, server.url);
});

embeddedRunTest(
  "five wrong master passwords: the sixth attempt says when to retry (exit 1)",
  async () => {
    for (let i = 0; i < 5; i++) {
      assertEquals(
        (await vault(["unlock", "--password-stdin"], { stdin: `wrong ${i} wrong ${i}\n` })).code,
        1,
      );
    }
    const limited = await vault(["unlock", "--password-stdin"], { stdin: `${NEXT}\n` });
    assertEquals(limited.code, 1);
    assertMatch(
      limited.stderr,
      /^error: Too many wrong master passwords from your user \(5 within 15 minutes\): retry in \d+ minutes \(at \d\d:\d\d\)\n$/,
    );
  },
);
