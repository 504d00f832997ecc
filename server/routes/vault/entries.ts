/** Vault entries and the audited reveal of their secret (API §12). */
import type { AppDeps } from "../../../app/deps.ts";
import { idParams, listResponse } from "../../../app/schemas.ts";
import {
  changeEntry,
  createEntry,
  getEntry,
  listEntries,
  removeEntry,
  revealSecret,
} from "../../../app/vault/entries.ts";
import {
  createVaultEntryBody,
  revealSchema,
  updateVaultEntryBody,
  vaultEntryDetailSchema,
  vaultEntryListQuery,
  vaultEntrySchema,
} from "../../../app/vault/vault_schemas.ts";
import { ApiRouter } from "../../route.ts";
import { LOCKED, NO_STORE_NOTE, noContent, noStore, VAULT_TAG } from "./_shared.ts";

const RULES =
  " Every entry route answers 423 `vault_locked` while this server process's vault is locked " +
  "(`vault_not_initialized` before initialization), before anything else is looked at. An " +
  "entry exists for the caller only with a level on its category (else 404); creating, " +
  "changing and deleting need edit level (lower → 403).";

const NO_SECRET = " Never contains the secret (only the reveal returns it).";

export function vaultEntryRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/vault/entries", VAULT_TAG)
    .route({
      method: "get",
      path: "/",
      summary: "List the vault entries the caller can see",
      description: "Sortable by name, createdAt, updatedAt; `q` searches name, username and URL " +
        "(case-insensitive, substring); `categoryId` keeps one category's entries (a category " +
        "the caller cannot see gives an empty page)." + NO_SECRET + RULES,
      access: "vault.view",
      fullLogin: true,
      query: vaultEntryListQuery,
      responses: {
        200: {
          description: "A page",
          schema: listResponse(vaultEntrySchema),
          headers: ["Cache-Control"],
        },
      },
      errors: { 423: LOCKED },
    }, async (c, { query, actor }) => {
      c.header("Cache-Control", "no-store");
      return c.json(await listEntries(deps, actor, query));
    })
    .route(
      {
        method: "post",
        path: "/",
        summary: "Create a vault entry",
        description: "The secret (kept exactly as given, 1 to 10,000 characters) and the notes " +
          "are stored encrypted (AES-256-GCM, bound to the entry and its category); name, " +
          "username and URL stay searchable. A category the caller cannot see → 400 " +
          "`invalid_reference`; below edit level → 403. The answer is the entry's record (with " +
          "its notes)." + NO_SECRET + RULES + NO_STORE_NOTE,
        access: "vault.edit",
        fullLogin: true,
        body: createVaultEntryBody,
        responses: {
          201: {
            description: "The entry",
            schema: vaultEntryDetailSchema,
            headers: ["Cache-Control"],
          },
        },
        errors: { 400: ["invalid_reference"], 423: LOCKED },
      },
      (c, { body, actor }) =>
        noStore(c, async () => c.json(await createEntry(deps, actor, body), 201)),
    )
    .route({
      method: "get",
      path: "/:id",
      summary: "Get a vault entry (with its notes)",
      description: "Notes are decrypted here; lists leave them out." + NO_SECRET + RULES +
        " Answered with `Cache-Control: no-store`.",
      access: "vault.view",
      fullLogin: true,
      params: idParams,
      responses: {
        200: {
          description: "The entry",
          schema: vaultEntryDetailSchema,
          headers: ["Cache-Control"],
        },
      },
      errors: { 423: LOCKED },
    }, async (c, { params, actor }) => {
      c.header("Cache-Control", "no-store");
      return c.json(await getEntry(deps, actor, params.id));
    })
    .route(
      {
        method: "patch",
        path: "/:id",
        summary: "Change a vault entry",
        description: "Any field of the create body; null clears username, url or notes. Moving " +
          "it (`categoryId`) needs edit level on both categories (a target the caller cannot " +
          "see → 400 `invalid_reference`) and seals the secret again for the new category." +
          NO_SECRET + RULES,
        access: "vault.edit",
        fullLogin: true,
        params: idParams,
        body: updateVaultEntryBody,
        responses: {
          200: {
            description: "The entry",
            schema: vaultEntryDetailSchema,
            headers: ["Cache-Control"],
          },
        },
        errors: { 400: ["invalid_reference"], 423: LOCKED },
      },
      (c, { params, body, actor }) =>
        noStore(c, async () => c.json(await changeEntry(deps, actor, params.id, body))),
    )
    .route({
      method: "delete",
      path: "/:id",
      summary: "Delete a vault entry",
      description: "The row goes (nothing of the secret is kept); the audit log keeps " +
        "`vault.entry_deleted`." + RULES,
      access: "vault.edit",
      fullLogin: true,
      params: idParams,
      responses: noContent("Deleted"),
      errors: { 423: LOCKED },
    }, async (c, { params, actor }) => {
      await removeEntry(deps, actor, params.id);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/:id/reveal",
        summary: "Reveal an entry's secret (audited)",
        description: "View level on the entry's category is enough. The sealed secret is " +
          "read and the reveal written to the audit log (`vault.entry_revealed`) by one " +
          "statement, so in one database transaction; the secret is decrypted and answered " +
          "only after it committed, so a reveal that could not be audited reveals nothing. A " +
          "ciphertext that fails its integrity check (tampered, or moved to another row) " +
          "answers 500 without the secret, and `vault.entry_integrity_failed` follows the " +
          "reveal in the audit log. Clients show it for 30 seconds (spec)." +
          RULES + NO_STORE_NOTE,
        access: "vault.view",
        fullLogin: true,
        params: idParams,
        responses: {
          200: { description: "The secret", schema: revealSchema, headers: ["Cache-Control"] },
        },
        errors: { 423: LOCKED },
      },
      (c, { params, actor }) =>
        noStore(c, async () => c.json({ secret: await revealSecret(deps, actor, params.id) })),
    );
}
