/**
 * `createApp(deps)`: the Hono application. Cross-cutting middleware first (request id and
 * logging), then one `ApiRouter` per resource under `/v1`, then the single error handler. A
 * feature adds its router factory to `ROUTERS` and nothing else. Bodies, their limits and
 * `Idempotency-Key` are handled by each declared route's pipeline (server/route.ts), after its
 * guard: no middleware here reads a request body.
 */
import { Hono } from "hono";
import type { AppDeps } from "../app/deps.ts";
import { NotFoundError } from "../domain/errors.ts";
import type { AppEnv } from "./context.ts";
import { problemJson, toProblem } from "./errors.ts";
import { requestContext } from "./middleware/request_context.ts";
import { buildOpenApiDocument, openApiDocumentSchema } from "./openapi.ts";
import { ApiRouter, type RegisteredRoute } from "./route.ts";
import {
  configRoutes,
  healthRoutes,
  locationRoutes,
  moduleRoutes,
  storeRoutes,
} from "./routes/platform.ts";
import { docsRoutes } from "./routes/docs.ts";
import { browserPages } from "./routes/reset_password_page.ts";
import { authRoutes, meRoutes } from "./routes/auth.ts";
import { userRoutes } from "./routes/users.ts";
import { permissionRoutes, roleRoutes } from "./routes/roles.ts";
import { auditRoutes } from "./routes/audit.ts";
import { INVENTORY_ROUTERS } from "./routes/inventory/mod.ts";
import { ACCOUNT_ROUTERS } from "./routes/accounts/mod.ts";
import { fileRoutes } from "./routes/files.ts";
import { LESSON_ROUTERS } from "./routes/lessons/mod.ts";
import { POS_ROUTERS } from "./routes/pos/mod.ts";
import { RENTAL_ROUTERS } from "./routes/rentals/mod.ts";
import { REPAIR_ROUTERS } from "./routes/repairs/mod.ts";
import { STORAGE_ROUTERS } from "./routes/storage/mod.ts";
import { VAULT_ROUTERS } from "./routes/vault/mod.ts";
import { scanRoutes } from "./routes/scan.ts";
import { BACKUP_ROUTERS } from "./routes/backup.ts";

const ROUTERS: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [
  healthRoutes,
  storeRoutes,
  locationRoutes,
  configRoutes,
  moduleRoutes,
  authRoutes,
  meRoutes,
  userRoutes,
  roleRoutes,
  permissionRoutes,
  auditRoutes,
  ...INVENTORY_ROUTERS,
  ...ACCOUNT_ROUTERS,
  ...LESSON_ROUTERS,
  ...POS_ROUTERS,
  ...REPAIR_ROUTERS,
  ...RENTAL_ROUTERS,
  ...STORAGE_ROUTERS,
  ...VAULT_ROUTERS,
  scanRoutes,
  fileRoutes,
  ...BACKUP_ROUTERS,
];

export interface AppWithRoutes {
  app: Hono<AppEnv>;
  routes: RegisteredRoute[];
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  return createAppWithRoutes(deps).app;
}

export function createAppWithRoutes(
  deps: AppDeps,
  extraRouters: ReadonlyArray<(deps: AppDeps) => ApiRouter> = [],
): AppWithRoutes {
  const app = new Hono<AppEnv>();
  app.use("*", requestContext(deps));

  const routers = [...ROUTERS, ...extraRouters].map((factory) => factory(deps));
  const openApiRouter = new ApiRouter(deps, "/openapi.json", "Documentation");
  const routes: RegisteredRoute[] = [];
  let document: Record<string, unknown> | undefined;
  openApiRouter.route({
    method: "get",
    path: "/",
    summary: "This OpenAPI 3.1 document",
    access: "public",
    responses: { 200: { description: "The OpenAPI document", schema: openApiDocumentSchema } },
  }, (c) => {
    document ??= buildOpenApiDocument(routes, {
      version: deps.version,
      serverUrl: deps.config.publicUrl,
    });
    return c.json(document);
  });
  for (const router of [...routers, openApiRouter]) {
    app.route(`/v1${router.basePath}`, router.hono);
    routes.push(...router.routes);
  }
  app.route("/docs", docsRoutes("/v1/openapi.json", deps.config.publicUrl));
  app.route("/", browserPages(deps));

  app.notFound((c) =>
    problemJson(
      toProblem(new NotFoundError("not_found", "No such route"), c.get("requestId") ?? "unknown"),
    )
  );
  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? "unknown";
    const problem = toProblem(error, requestId);
    if (problem.status >= 500) {
      deps.logger.error("unhandled error", {
        requestId,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: problem.status === 500 && error instanceof Error ? error.stack : undefined,
      });
    }
    return problemJson(problem);
  });
  return { app, routes };
}
