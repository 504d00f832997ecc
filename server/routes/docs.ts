/**
 * The interactive API reference at `/docs` (Swagger UI rendering `/v1/openapi.json`). Its
 * assets come from the `swagger-ui-dist` npm package pinned in deno.json and are served from
 * `/docs/assets/*`, so the page works offline (no CDN).
 *
 * Every answer carries a strict Content-Security-Policy (own scripts only, no framing, calls
 * only to this server and the API's public URL), `X-Frame-Options: DENY`, `nosniff` and
 * `Referrer-Policy: no-referrer`; a token typed into "Authorize" lives in the page only
 * (`persistAuthorization: false`: never written to localStorage).
 */
import { Hono } from "hono";

/** The files the page needs, by public name → content type. Nothing else is served. */
const ASSETS: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

function packageFile(name: string): URL {
  return new URL(import.meta.resolve(`swagger-ui-dist/${name}`));
}

/**
 * Swagger UI's own filter box matches tags only; this plugin makes it match each operation's
 * path, method, summary, description and operationId, so "refund" or "/drawers" finds the
 * operations among the 190 (tags with no match are hidden).
 */
const OPERATION_FILTER_PLUGIN = `function OperationFilterPlugin(system) {
  return {
    fn: {
      opsFilter: function (taggedOps, phrase) {
        var words = String(phrase || "").toLowerCase().split(/\\s+/).filter(Boolean);
        if (words.length === 0) return taggedOps;
        var result = {};
        var all = taggedOps.toJS();
        Object.keys(all).forEach(function (tag) {
          var entry = all[tag];
          var operations = entry.operations.filter(function (op) {
            var o = op.operation || {};
            var text = [tag, op.method, op.path, o.summary, o.description, o.operationId]
              .join(" ").toLowerCase();
            return words.every(function (word) { return text.indexOf(word) !== -1; });
          });
          if (operations.length > 0) result[tag] = Object.assign({}, entry, { operations: operations });
        });
        return system.Im.fromJS(result);
      },
    },
  };
}`;

function initScript(specUrl: string): string {
  return `${OPERATION_FILTER_PLUGIN}
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(specUrl)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: false,
    filter: true,
    plugins: [OperationFilterPlugin],
  });
});
`;
}

function page(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Shop back office API</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <noscript>The reference needs JavaScript; the document itself is at
    <a href="${specUrl}">${specUrl}</a>.</noscript>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;
}

/** The page's policy: its own scripts and styles, API calls to itself and to `apiUrl`. */
export function docsContentSecurityPolicy(apiUrl: string | undefined): string {
  let apiOrigin = "";
  try {
    if (apiUrl) apiOrigin = ` ${new URL(apiUrl).origin}`;
  } catch {
    // Not a URL: calls go to this server only.
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Swagger UI sets style attributes on its elements.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** `/docs` and `/docs/assets/*`; files are read once and kept in memory. */
export function docsRoutes(specUrl: string, apiUrl?: string): Hono {
  const cache = new Map<string, Uint8Array>();
  const docs = new Hono();
  const policy = docsContentSecurityPolicy(apiUrl);
  docs.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Content-Security-Policy", policy);
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("Referrer-Policy", "no-referrer");
  });
  docs.get("/", (c) => c.html(page(specUrl)));
  docs.get("/assets/init.js", (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(initScript(specUrl));
  });
  docs.get("/assets/:name", async (c) => {
    const name = c.req.param("name");
    const contentType = ASSETS[name];
    if (!contentType) return c.notFound();
    let bytes = cache.get(name);
    if (!bytes) {
      bytes = await Deno.readFile(packageFile(name));
      cache.set(name, bytes);
    }
    c.header("Content-Type", contentType);
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(bytes as Uint8Array<ArrayBuffer>);
  });
  return docs;
}
