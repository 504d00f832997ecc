/**
 * Writes the generated OpenAPI document to a file (default `openapi.json`), for linting
 * (`npx @redocly/cli lint`) and for client generators. Builds the app on an in-memory
 * embedded database; nothing is written anywhere else.
 *
 *   deno run -A scripts/export_openapi.ts [output.json]
 */
import { loadConfig } from "../app/config.ts";
import { openDatabase } from "../app/db/connect.ts";
import { createDeps } from "../app/create_deps.ts";
import { createLogger } from "../app/logger.ts";
import { createApp } from "../server/app.ts";

const output = Deno.args[0] ?? "openapi.json";
const handle = await openDatabase({ inMemory: true });
try {
  const config = loadConfig({
    APP_ENV: "test",
    JWT_SECRET: "export-openapi-secret-that-is-long-enough",
    DATA_DIR: Deno.makeTempDirSync({ prefix: "shop-openapi-" }),
    PUBLIC_URL: Deno.env.get("PUBLIC_URL") ?? "http://localhost:8000",
  });
  const deps = createDeps({
    config,
    db: handle.db,
    dbKind: "embedded",
    logger: createLogger("error", (line) => console.error(line)),
  });
  const response = await createApp(deps).request("/v1/openapi.json");
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  const document = await response.json();
  await Deno.writeTextFile(output, JSON.stringify(document, null, 2) + "\n");
  await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
  console.error(`Wrote ${output} (${Object.keys(document.paths).length} paths)`);
} finally {
  await handle.close();
}
