/** Schemas of the audit log route (API §14). */
import { z } from "zod";
import { listQuery, timestamp, uuid } from "../schemas.ts";

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entityType: z.string().nullable(),
  entityId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
}).meta({ id: "AuditEvent" });

export const auditListQuery = listQuery({
  sort: ["at", "createdAt"],
  defaultSort: "at",
  defaultOrder: "desc",
  filters: {
    actorId: uuid.optional(),
    action: z.string().trim().min(1).max(100).optional(),
    entityType: z.string().trim().min(1).max(100).optional(),
    entityId: z.string().trim().min(1).max(200).optional(),
    from: timestamp.optional().describe("Events at or after this instant"),
    to: timestamp.optional().describe("Events at or before this instant"),
  },
});
