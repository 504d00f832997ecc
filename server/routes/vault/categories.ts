/** Vault categories and their grants (API §12). */
import type { AppDeps } from "../../../app/deps.ts";
import { dataResponse, idParams, listResponse } from "../../../app/schemas.ts";
import {
  changeCategory,
  createCategory,
  getCategory,
  listCategories,
  removeCategory,
} from "../../../app/vault/categories.ts";
import {
  grantCategoryLevel,
  listCategoryGrants,
  revokeCategoryGrant,
} from "../../../app/vault/category_permissions.ts";
import {
  createVaultCategoryBody,
  createVaultGrantBody,
  grantParams,
  updateVaultCategoryBody,
  vaultCategoryListQuery,
  vaultCategorySchema,
  vaultGrantSchema,
} from "../../../app/vault/vault_schemas.ts";
import { ApiRouter } from "../../route.ts";
import { noContent, VAULT_TAG } from "./_shared.ts";

const VISIBILITY =
  " A category exists for the caller only with a level on it: effective level = min(highest " +
  "level granted to them or one of their roles, ceiling), where vault.view caps at view, " +
  "vault.edit lets the grants decide (up to admin), and vault.admin is admin on every " +
  "category with or without grants. Without a level → 404, as for a category that does not " +
  "exist. Categories hold no secret and answer while the vault is locked.";

const GRANTS =
  " Reading and changing a category's grants needs admin level on it (vault.admin, or " +
  "vault.edit with an admin grant); a lower level → 403, none → 404.";

export function vaultCategoryRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/vault/categories", VAULT_TAG)
    .route({
      method: "get",
      path: "/",
      summary: "List the vault categories the caller can see",
      description: "Sortable by name, createdAt; `q` searches the name. Each item carries the " +
        "caller's effective `level`." + VISIBILITY,
      access: "vault.view",
      fullLogin: true,
      query: vaultCategoryListQuery,
      responses: { 200: { description: "A page", schema: listResponse(vaultCategorySchema) } },
    }, async (c, { query, actor }) => c.json(await listCategories(deps, actor, query)))
    .route({
      method: "post",
      path: "/",
      summary: "Create a vault category",
      description: "Names are unique (case-insensitive) → 409 `duplicate`.",
      access: "vault.admin",
      fullLogin: true,
      body: createVaultCategoryBody,
      responses: { 201: { description: "The category", schema: vaultCategorySchema } },
      errors: { 409: ["duplicate"] },
    }, async (c, { body, actor }) => c.json(await createCategory(deps, actor, body), 201))
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a vault category",
      description: VISIBILITY.trim(),
      access: "vault.view",
      fullLogin: true,
      params: idParams,
      responses: { 200: { description: "The category", schema: vaultCategorySchema } },
    }, async (c, { params, actor }) => c.json(await getCategory(deps, actor, params.id)))
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Rename or describe a vault category",
        description: "A name another category has → 409 `duplicate`.",
        access: "vault.admin",
        fullLogin: true,
        params: idParams,
        body: updateVaultCategoryBody,
        responses: { 200: { description: "The category", schema: vaultCategorySchema } },
        errors: { 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await changeCategory(deps, actor, params.id, body)),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete an empty vault category",
      description: "Refused with 409 `in_use` while it holds entries; its grants go with it.",
      access: "vault.admin",
      fullLogin: true,
      params: idParams,
      responses: noContent("Deleted"),
      errors: { 409: ["in_use"] },
    }, async (c, { params, actor }) => {
      await removeCategory(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "get",
        path: "/:id/permissions",
        summary: "List the grants on a vault category",
        description: "`{ data }`, oldest first; each grant names a role or a user." + GRANTS,
        access: "vault.edit",
        fullLogin: true,
        params: idParams,
        responses: { 200: { description: "The grants", schema: dataResponse(vaultGrantSchema) } },
      },
      async (c, { params, actor }) =>
        c.json({ data: await listCategoryGrants(deps, actor, params.id) }),
    )
    .route(
      {
        method: "post",
        path: "/:id/permissions",
        summary: "Grant a level on a vault category to a role or a user",
        description: "Exactly one of `roleId` and `userId` (else 400); an unknown role or user → " +
          "400 `invalid_reference`; a subject that already has a grant on the category → 409 " +
          "`duplicate` (delete it to change the level). The grantee's effective level is still " +
          "capped by their own vault permission." + GRANTS,
        access: "vault.edit",
        fullLogin: true,
        params: idParams,
        body: createVaultGrantBody,
        responses: { 201: { description: "The grant", schema: vaultGrantSchema } },
        errors: { 400: ["invalid_reference"], 409: ["duplicate"] },
      },
      async (c, { params, body, actor }) =>
        c.json(await grantCategoryLevel(deps, actor, params.id, body), 201),
    )
    .route({
      method: "delete",
      path: "/:id/permissions/:permissionId",
      summary: "Remove a grant from a vault category",
      description: "A grant id of another category → 404." + GRANTS,
      access: "vault.edit",
      fullLogin: true,
      params: grantParams,
      responses: noContent("Removed"),
    }, async (c, { params, actor }) => {
      await revokeCategoryGrant(deps, actor, params.id, params.permissionId);
      return c.body(null, 204);
    });
}
