/** Registers, the tills of a location (API §8). */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  createRegisterBody,
  registerListQuery,
  registerSchema,
  updateRegisterBody,
} from "../../../app/pos/pos_schemas.ts";
import { listRegisters } from "../../../app/pos/registers_repo.ts";
import {
  changeRegister,
  createRegister,
  removeRegister,
  requireRegister,
} from "../../../app/pos/registers.ts";
import { ApiRouter } from "../../route.ts";

export function registerRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/registers", "Point of sale")
    .route({
      method: "get",
      path: "/",
      summary: "List registers",
      description: "Sortable by name, createdAt (default name). `q` matches the name. " +
        "Filters: `locationId`, `isActive`.",
      access: "pos.view",
      query: registerListQuery,
      responses: {
        200: { description: "A page of registers", schema: listResponse(registerSchema) },
      },
    }, async (c, { query }) => c.json(await listRegisters(deps.db, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a register",
      description: "Names are unique per location (case-insensitive; 409 `duplicate`). Unknown " +
        "`locationId` → 400 `invalid_reference`.",
      access: "pos.admin",
      body: createRegisterBody,
      responses: { 201: { description: "The new register", schema: registerSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { body }) => c.json(await createRegister(deps, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a register",
      access: "pos.view",
      params: idParams,
      responses: { 200: { description: "The register", schema: registerSchema } },
    }, async (c, { params }) => c.json(await requireRegister(deps.db, params.id)))
    .route({
      method: "patch",
      path: "/:id",
      summary: "Update a register",
      access: "pos.admin",
      params: idParams,
      body: updateRegisterBody,
      responses: { 200: { description: "The updated register", schema: registerSchema } },
      errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
    }, async (c, { params, body }) => c.json(await changeRegister(deps, params.id, body)))
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a register",
      description: "Only a register without drawer history; otherwise 409 `in_use` (set " +
        "`isActive: false` instead).",
      access: "pos.admin",
      params: idParams,
      responses: { 204: { description: "Deleted" } },
      errors: { 409: ["in_use"] },
    }, async (c, { params }) => {
      await removeRegister(deps, params.id);
      return c.body(null, 204);
    });
}
