/**
 * The pages a browser opens outside `/v1`:
 * - `GET /reset-password?token=…` (API §2): the page behind every reset link (emailed, or
 *   printed by `ops user create` / `POST /v1/auth/reset-password/:userId`). A form that sets
 *   the new password through `POST /v1/auth/reset-password`, naming the account it is for (a
 *   link that no longer works gets a 410 page saying so); no external assets, a strict
 *   `Content-Security-Policy` (its one script and style allowed by hash), `Cache-Control:
 *   no-store`, `Referrer-Policy: no-referrer`. The token is never logged (the request log
 *   names the path only) and is dropped from the address bar once used.
 * - `GET /`: a browser (`Accept: text/html`) is redirected to `/docs`; any other client gets
 *   `{ name, version, docs, openapi, health }`.
 */
import { Hono } from "hono";
import { findResetLinkAccount } from "../../app/auth/password_reset.ts";
import type { AppDeps } from "../../app/deps.ts";

/** The call the page makes (public, rate limited with the other auth routes). */
export const RESET_PASSWORD_API = "/v1/auth/reset-password";

/** What reset links carry: base64url, as many characters as the API's body accepts. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f5f4; color: #1c1917; }
main { max-width: 26rem; margin: 4rem auto; padding: 2rem; background: #fff;
  border-radius: .5rem; box-shadow: 0 1px 3px rgb(0 0 0 / .15); }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
input { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit;
  border: 1px solid #a8a29e; border-radius: .25rem; }
button { margin-top: 1.25rem; padding: .5rem 1.25rem; font: inherit; border: 0;
  border-radius: .25rem; background: #1d4ed8; color: #fff; cursor: pointer; }
button:disabled { background: #93a3c4; cursor: wait; }
.hint { color: #57534e; font-size: .9rem; }
.error { color: #b91c1c; }
.ok { color: #15803d; }
`;

const SCRIPT = `
"use strict";
(function () {
  var form = document.getElementById("reset");
  if (!form) return;
  var message = document.getElementById("message");
  var button = form.querySelector("button");
  function show(text, kind) {
    message.textContent = text;
    message.className = kind;
  }
  function bytes(text) {
    return new TextEncoder().encode(text).length;
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var data = new FormData(form);
    var password = String(data.get("newPassword") || "");
    if (bytes(password) < 8) return show("Use at least 8 characters.", "error");
    if (bytes(password) > 72) return show("Use at most 72 characters (fewer with accented letters or symbols, which count as two to four).", "error");
    if (password !== String(data.get("confirm") || "")) return show("The two passwords differ.", "error");
    button.disabled = true;
    show("Saving...", "hint");
    fetch(form.getAttribute("action"), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ token: String(data.get("token") || ""), newPassword: password }),
      credentials: "omit",
      cache: "no-store",
    }).then(function (res) {
      if (res.status === 204) {
        history.replaceState(null, "", location.pathname);
        form.hidden = true;
        document.getElementById("done").hidden = false;
        return;
      }
      return res.json().catch(function () { return {}; }).then(function (problem) {
        button.disabled = false;
        if (problem.code === "invalid_token") {
          return show("This link has expired or was already used. Ask for a new one.", "error");
        }
        if (res.status === 429) {
          var seconds = Number(res.headers.get("Retry-After")) || 60;
          return show("Too many attempts: try again in " + Math.ceil(seconds / 60) + " minute(s).", "error");
        }
        var first = problem.errors && problem.errors[0];
        show((first && first.message) || problem.detail || ("The server answered " + res.status + "."), "error");
      });
    }).catch(function () {
      button.disabled = false;
      show("The server cannot be reached. Check the connection and try again.", "error");
    });
  });
})();
`;

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Shop back office</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${SCRIPT}</script>
</body>
</html>`;
}

interface Account {
  email: string;
  firstName: string;
  lastName: string;
}

function formPage(token: string, account: Account): string {
  const email = escapeHtml(account.email);
  const name = escapeHtml(`${account.firstName} ${account.lastName}`.trim());
  return layout(
    "Set your password",
    `<h1>Set your password</h1>
<p>For the account <strong>${email}</strong>${name ? ` (${name})` : ""}.</p>
<form id="reset" method="post" action="${RESET_PASSWORD_API}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input name="username" type="email" autocomplete="username" value="${email}" hidden readonly>
<label for="newPassword">New password</label>
<input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="8" required autofocus>
<p class="hint">8 to 72 characters. The link works once.</p>
<label for="confirm">Repeat the password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Set password</button>
<p id="message" role="status" aria-live="polite"></p>
</form>
<div id="done" hidden>
<p class="ok">Your password is set.</p>
<p>Log in with it: <code>deno task ops login --email ${email}</code>, or <code>POST /v1/auth/login</code> (see <a href="/docs">/docs</a>).</p>
</div>
<noscript><p class="error">This page needs JavaScript to send the form. Without it, send
<code>POST ${RESET_PASSWORD_API}</code> with <code>{"token": "…", "newPassword": "…"}</code> (the token is the
<code>token</code> part of this page's address).</p></noscript>`,
  );
}

function brokenLinkPage(): string {
  return layout(
    "Reset link not valid",
    `<h1>This reset link is not complete</h1>
<p class="error">The address lacks its token, or was cut or changed when it was copied.</p>
<p>Copy the whole link again, or ask an administrator for a new one
(<code>deno task ops user reset-link --email …</code>).</p>`,
  );
}

function usedLinkPage(): string {
  return layout(
    "Reset link no longer valid",
    `<h1>This link no longer works</h1>
<p class="error">This link has expired or was already used.</p>
<p>Ask an administrator for a new one (<code>deno task ops user reset-link --email …</code>),
or ask for an email with <code>POST /v1/auth/forgot-password</code>.</p>`,
  );
}

/** `'sha256-…'` of an inline script or style, as CSP takes it. */
async function cspHash(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

async function contentSecurityPolicy(): Promise<string> {
  return [
    "default-src 'none'",
    `script-src ${await cspHash(SCRIPT)}`,
    `style-src ${await cspHash(STYLE)}`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Mounted at the server root: `GET /` and `GET /reset-password`. */
export function browserPages(deps: Pick<AppDeps, "version" | "db" | "clock">): Hono {
  const csp = contentSecurityPolicy();
  const pages = new Hono();

  pages.get("/", (c) => {
    if ((c.req.header("Accept") ?? "").includes("text/html")) return c.redirect("/docs", 302);
    return c.json({
      name: "Shop back office API",
      version: deps.version,
      docs: "/docs",
      openapi: "/v1/openapi.json",
      health: "/v1/health",
    });
  });

  pages.get("/reset-password", async (c) => {
    const token = c.req.query("token") ?? "";
    c.header("Content-Security-Policy", await csp);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("X-Frame-Options", "DENY");
    if (!TOKEN_PATTERN.test(token)) return c.html(brokenLinkPage(), 400);
    // Named on the page, so whoever opens it sees whose password it sets (and a password
    // manager saves it for that account); reading it does not use the link up.
    const account = await findResetLinkAccount(deps, token);
    if (!account) return c.html(usedLinkPage(), 410);
    return c.html(formPage(token, account));
  });

  return pages;
}
