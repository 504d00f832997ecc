/** The audit log (API §14). */
import type { AppDeps } from "../../app/deps.ts";
import { listResponse } from "../../app/schemas.ts";
import { listAuditLog } from "../../app/audit/audit_repo.ts";
import { auditEventSchema, auditListQuery } from "../../app/audit/audit_schemas.ts";
import { ApiRouter } from "../route.ts";

export function auditRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/audit-log", "Audit log").route({
    method: "get",
    path: "/",
    summary: "Security- and money-relevant events",
    description: "Newest first (sort `at`, order desc by default; `createdAt` is an alias of " +
      "`at`). Filters: actorId, action, entityType, entityId, from, to (ISO timestamps, " +
      "inclusive). `q` is a case-insensitive substring search over action, actor email and " +
      "entity type (trigram-indexed). Never holds secrets.",
    access: "settings.admin",
    query: auditListQuery,
    responses: { 200: { description: "A page of events", schema: listResponse(auditEventSchema) } },
  }, async (c, { query }) => c.json(await listAuditLog(deps.db, query)));
}
