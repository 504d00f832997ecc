/**
 * Service templates (API §9): a name, an item category, default line items (copied onto a
 * ticket created from the template) and an estimated duration; soft delete. A default line
 * names an existing product, or else gives its description and unit price (400 otherwise).
 */
import { NotFoundError } from "../../domain/errors.ts";
import { resolveLineItem } from "../../domain/repairs/line_items.ts";
import type { Actor } from "../actor.ts";
import { audit } from "../audit/audit.ts";
import type { Db } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { AppDeps } from "../deps.ts";
import { productsOf } from "./line_items.ts";
import type { TemplateLineItem } from "./repairs_tables.ts";
import type { CreateTemplateInput, TemplateJson, UpdateTemplateInput } from "./repair_schemas.ts";
import {
  findTemplate,
  insertTemplate,
  softDeleteTemplate,
  updateTemplateRow,
} from "./templates_repo.ts";

function templateNotFound(id: string): NotFoundError {
  return new NotFoundError("not_found", `Service template "${id}" does not exist`);
}

export async function requireTemplate(db: Db, id: string): Promise<TemplateJson> {
  const template = await findTemplate(db, id);
  if (!template) throw templateNotFound(id);
  return template;
}

/** The lines as stored, after checking each resolves (products exist, free lines complete). */
async function checkedLines(
  db: Db,
  lines: CreateTemplateInput["defaultLineItems"],
): Promise<TemplateLineItem[]> {
  const products = await productsOf(db, lines.map((l) => l.productId));
  return lines.map((line, i) => {
    resolveLineItem(
      line,
      line.productId ? products.get(line.productId) : undefined,
      { path: `defaultLineItems[${i}]` },
    );
    return {
      kind: line.kind,
      description: line.description ?? null,
      quantity: line.quantity,
      unitPrice: line.unitPrice ?? null,
      productId: line.productId ?? null,
    };
  });
}

export async function createTemplate(
  deps: AppDeps,
  actor: Actor,
  input: CreateTemplateInput,
): Promise<TemplateJson> {
  return await withTransaction(deps.db, async (trx) => {
    const template = await insertTemplate(trx, {
      id: deps.ids.uuid(),
      name: input.name,
      description: input.description ?? null,
      itemCategory: input.itemCategory,
      defaultLineItems: await checkedLines(trx, input.defaultLineItems),
      estimatedMinutes: input.estimatedMinutes ?? null,
      now: deps.clock.now(),
    });
    await audit(deps, trx, actor, {
      action: "service_template.created",
      entityType: "service_template",
      entityId: template.id,
      details: { name: template.name },
    });
    return template;
  });
}

export async function updateTemplate(
  deps: AppDeps,
  _actor: Actor,
  id: string,
  input: UpdateTemplateInput,
): Promise<TemplateJson> {
  return await withTransaction(deps.db, async (trx) => {
    const template = await updateTemplateRow(trx, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.itemCategory !== undefined ? { itemCategory: input.itemCategory } : {}),
      ...(input.defaultLineItems !== undefined
        ? { defaultLineItems: await checkedLines(trx, input.defaultLineItems) }
        : {}),
      ...(input.estimatedMinutes !== undefined ? { estimatedMinutes: input.estimatedMinutes } : {}),
    }, deps.clock.now());
    if (!template) throw templateNotFound(id);
    return template;
  });
}

export async function deleteTemplate(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  await withTransaction(deps.db, async (trx) => {
    const template = await requireTemplate(trx, id);
    if (!(await softDeleteTemplate(trx, id, deps.clock.now()))) throw templateNotFound(id);
    await audit(deps, trx, actor, {
      action: "service_template.deleted",
      entityType: "service_template",
      entityId: id,
      details: { name: template.name },
    });
  });
}
