/**
 * The page behind every reset link (API §2): `GET /reset-password?token=…` serves a minimal
 * HTML form that sets the password through `POST /v1/auth/reset-password`; walked end to end
 * as a browser would, in process and with the real CLI and server.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_helpers/assert.ts";
import { api, type TestApp, type TestUser } from "../_helpers/test_app.ts";
import { prepareDataDir, removeDir, runOps, startServer } from "../_helpers/processes.ts";
import { adminSuite, uniqueEmail } from "./_auth_helpers.ts";

let t: TestApp;
let admin: TestUser;
adminSuite((s) => ({ t, u: admin } = s));

const NEW_PASSWORD = "a brand new passphrase";

interface PageForm {
  action: string;
  method: string;
  /** name → value of every input (empty for the ones the user types). */
  inputs: Map<string, string>;
}

/** The form as a browser reads it (attribute order as the page writes them). */
function readForm(html: string): PageForm {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  assert(form, "the page has a form");
  const attribute = (tag: string, name: string) =>
    new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? "";
  const inputs = new Map<string, string>();
  for (const input of form[2]!.matchAll(/<input\b[^>]*>/g)) {
    inputs.set(attribute(input[0], "name"), attribute(input[0], "value"));
  }
  return {
    action: attribute(form[1]!, "action"),
    method: attribute(form[1]!, "method"),
    inputs,
  };
}

interface ScriptOutcome {
  /** What the page shows in its status line. */
  message: string;
  /** Whether the form was swapped for the "password set" note. */
  done: boolean;
  /** Requests the script made: URL and JSON body. */
  sent: Array<{ url: string; body: Record<string, unknown> }>;
  /** The address the script left in the address bar, if it replaced it. */
  address?: string;
}

/**
 * Runs the page's own script on a minimal stand-in of the DOM holding the page's form, types
 * the passwords, submits, and sends the script's request to `send` (the app under test).
 */
async function submitThroughPageScript(
  html: string,
  typed: { newPassword: string; confirm: string },
  send: (url: string, init: RequestInit) => Promise<Response>,
): Promise<ScriptOutcome> {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const form = readForm(html);
  const values: Record<string, string> = {
    ...Object.fromEntries(form.inputs),
    newPassword: typed.newPassword,
    confirm: typed.confirm,
  };
  const outcome: ScriptOutcome = { message: "", done: false, sent: [] };
  let submit: ((event: { preventDefault(): void }) => void) | undefined;
  let pending: Promise<unknown> = Promise.resolve();
  const status = { textContent: "", className: "" };
  const done = { hidden: true };
  const formElement = {
    hidden: false,
    getAttribute: (name: string) => (name === "action" ? form.action : null),
    querySelector: () => ({ disabled: false }),
    addEventListener: (type: string, listener: typeof submit) => {
      if (type === "submit") submit = listener;
    },
  };
  const elements: Record<string, unknown> = { reset: formElement, message: status, done };
  const document = { getElementById: (id: string) => elements[id] ?? null };
  class PageFormData {
    get(name: string) {
      return values[name] ?? null;
    }
  }
  const fetchStub = (url: string, init: RequestInit) => {
    outcome.sent.push({ url, body: JSON.parse(String(init.body)) });
    const response = send(url, init);
    pending = response;
    return response;
  };
  const history = {
    replaceState: (_s: unknown, _t: string, url: string) => (outcome.address = url),
  };
  const location = { pathname: "/reset-password" };
  new Function("document", "FormData", "fetch", "history", "location", script)(
    document,
    PageFormData,
    fetchStub,
    history,
    location,
  );
  assert(submit, "the script listens for the form's submit");
  submit({ preventDefault() {} });
  await pending.catch(() => {});
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  outcome.message = status.textContent;
  outcome.done = !done.hidden && formElement.hidden;
  return outcome;
}

async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

/** A new user without a password, as `POST /v1/users` makes one: its reset link. */
async function newUserLink(): Promise<{ email: string; path: string; token: string }> {
  const email = uniqueEmail("newhire");
  const created = await api(t.app, "POST", "/v1/users", {
    token: admin.token,
    body: { email, firstName: "New", lastName: "Hire" },
  });
  assertEquals(created.status, 201, created.text);
  const url = new URL(created.body.resetLink.url);
  assertEquals(url.pathname, "/reset-password");
  return { email, path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")! };
}

Deno.test("a new user's reset link opens a form whose script sets the password; then login works", async () => {
  const { email, path, token } = await newUserLink();

  const page = await t.app.request(path);
  assertEquals(page.status, 200);
  assertStringIncludes(page.headers.get("Content-Type") ?? "", "text/html");
  const html = await page.text();
  const form = readForm(html);
  assertEquals(form.action, "/v1/auth/reset-password");
  assertEquals(form.method, "post");
  assertEquals(form.inputs.get("token"), token);
  assert(form.inputs.has("newPassword"));
  // It names the account whose password it sets, and counts in characters.
  assertStringIncludes(html, `For the account <strong>${email}</strong> (New Hire)`);
  assertEquals(form.inputs.get("username"), email);
  assertStringIncludes(html, "8 to 72 characters");
  const shown = html.replace(/<script>[\s\S]*?<\/script>/, "");
  assert(!/\bbytes\b/.test(shown), "the page speaks of bytes");

  const send = (url: string, init: RequestInit) => Promise.resolve(t.app.request(url, init));
  // Two different passwords: the page says so and sends nothing.
  const differ = await submitThroughPageScript(html, {
    newPassword: NEW_PASSWORD,
    confirm: "something else",
  }, send);
  assertEquals(differ.sent.length, 0);
  assertStringIncludes(differ.message, "differ");

  // The page's script sends the form's token and the typed password to the API.
  const set = await submitThroughPageScript(html, {
    newPassword: NEW_PASSWORD,
    confirm: NEW_PASSWORD,
  }, send);
  assertEquals(set.sent, [{
    url: "/v1/auth/reset-password",
    body: { token, newPassword: NEW_PASSWORD },
  }]);
  assert(set.done, `the page did not report success: ${set.message}`);
  assertEquals(set.address, "/reset-password", "the token stays in the address bar");

  const login = await api(t.app, "POST", "/v1/auth/login", {
    body: { email, password: NEW_PASSWORD },
  });
  assertEquals(login.status, 200, login.text);
  const me = await api(t.app, "GET", "/v1/auth/me", { token: login.body.accessToken });
  assertEquals(me.body.email, email);

  // The link works once: opened again, the page says it is used up and offers no form.
  const reopened = await t.app.request(path);
  assertEquals(reopened.status, 410);
  const used = await reopened.text();
  assertStringIncludes(used, "expired or was already used");
  assert(!used.includes("<form") && !used.includes(email), used);

  // Used up between opening the page and sending it: the page's script says so.
  const again = await submitThroughPageScript(html, {
    newPassword: "yet another passphrase",
    confirm: "yet another passphrase",
  }, send);
  assertEquals(again.done, false);
  assertStringIncludes(again.message, "expired or was already used");
});

Deno.test("the page's script counts characters: too short, and too long in bytes, say characters", async () => {
  const { path } = await newUserLink();
  const html = await (await t.app.request(path)).text();
  const send = () => Promise.reject(new Error("nothing may be sent"));
  const short = await submitThroughPageScript(
    html,
    { newPassword: "short", confirm: "short" },
    send,
  );
  assertEquals(short.message, "Use at least 8 characters.");
  const accented = "é".repeat(37); // 37 characters, 74 bytes
  const long = await submitThroughPageScript(
    html,
    { newPassword: accented, confirm: accented },
    send,
  );
  assertStringIncludes(long.message, "Use at most 72 characters");
  assertEquals(long.sent.length + short.sent.length, 0);
});

Deno.test("the page loads nothing from elsewhere and runs under a strict CSP that allows its own script and style", async () => {
  const { path, token } = await newUserLink();
  const page = await t.app.request(path);
  const html = await page.text();
  const csp = page.headers.get("Content-Security-Policy") ?? "";
  assertStringIncludes(csp, "default-src 'none'");
  assertStringIncludes(csp, "frame-ancestors 'none'");
  assertStringIncludes(csp, "connect-src 'self'");
  assert(!csp.includes("unsafe-inline") && !csp.includes("unsafe-eval"), csp);
  assertEquals(page.headers.get("Cache-Control"), "no-store");
  assertEquals(page.headers.get("Referrer-Policy"), "no-referrer");
  assertEquals(page.headers.get("X-Content-Type-Options"), "nosniff");

  // No external asset: no src/href to another origin, no external script or stylesheet.
  for (const [, ref] of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) {
    assert(ref!.startsWith("/"), `${ref} is not on this server`);
  }
  assert(!/<script\b[^>]*\bsrc=/.test(html) && !/<link\b[^>]*stylesheet/.test(html));

  // The inline script and style are exactly the ones the policy allows (else a browser
  // would block them and the form would do nothing).
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  assertEquals(scripts.length, 1);
  assertEquals(styles.length, 1);
  assertStringIncludes(csp, `script-src ${await sha256Source(scripts[0]!)}`);
  assertStringIncludes(csp, `style-src ${await sha256Source(styles[0]!)}`);
  assertStringIncludes(scripts[0]!, 'form.getAttribute("action")');
  assertStringIncludes(scripts[0]!, "newPassword");

  // The token is in the page it belongs to, never in the log.
  assert(!t.logLines.some((line) => line.includes(token)), "the token was logged");
  assert(t.logLines.some((line) => line.includes('"path":"/reset-password"')));
});

Deno.test("a link without its token, or with a damaged one, gets a 400 page saying so", async () => {
  for (const path of ["/reset-password", "/reset-password?token=", "/reset-password?token=a%3Cb"]) {
    const res = await t.app.request(path);
    assertEquals(res.status, 400, path);
    assertStringIncludes(res.headers.get("Content-Type") ?? "", "text/html");
    const html = await res.text();
    assertStringIncludes(html, "not complete");
    assert(!html.includes("<form"), path);
    assert(!html.includes("a<b"), "the damaged token is not echoed");
    assertEquals(res.headers.get("Cache-Control"), "no-store");
  }
});

Deno.test({
  name:
    "the link `ops user create` prints opens the page on the running server, and its password logs in",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { dataDir } = await prepareDataDir();
    try {
      const email = uniqueEmail("owner");
      const created = await runOps(
        ["user", "create", "--email", email, "--first", "Olive", "--last", "Owner"],
        { dataDir, env: { PUBLIC_URL: "http://shop.example" } },
      );
      assertEquals(created.code, 0, created.stderr);
      const printed = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(created.stdout);
      assert(printed, `no reset link in: ${created.stdout}`);
      const link = new URL(printed[0]);
      assertEquals(link.origin, "http://shop.example");

      const server = await startServer({ dataDir });
      try {
        const page = await fetch(`${server.url}${link.pathname}${link.search}`);
        assertEquals(page.status, 200);
        assertStringIncludes(page.headers.get("Content-Type") ?? "", "text/html");
        const form = readForm(await page.text());
        const set = await fetch(`${server.url}${form.action}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token: form.inputs.get("token"), newPassword: NEW_PASSWORD }),
        });
        assertEquals(set.status, 204, await set.text());
        const login = await fetch(`${server.url}/v1/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email, password: NEW_PASSWORD }),
        });
        const body = await login.json();
        assertEquals(login.status, 200, JSON.stringify(body));
        assertMatch(body.accessToken, /^ey/);
        const token = link.searchParams.get("token")!;
        assert(!server.lines.some((line) => line.includes(token)), "the token was logged");
      } finally {
        server.kill("SIGTERM");
        await server.status;
      }
    } finally {
      await removeDir(dataDir);
    }
  },
});
