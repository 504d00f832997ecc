/** Use cases of payment-processor links: (processor, externalCustomerId) is unique. */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { ListParams } from "../schemas.ts";
import {
  deleteProcessorLinkRow,
  findProcessorLink,
  insertProcessorLink,
  listProcessorLinks as listProcessorLinkRows,
  type ProcessorLinkChanges,
  type ProcessorLinkRecord,
  updateProcessorLinkRow,
} from "./processor_links_repo.ts";
import { requireAccount } from "./accounts.ts";

/** The processor link (of a live account) or 404. */
export async function requireProcessorLink(db: Db, id: string): Promise<ProcessorLinkRecord> {
  const link = await findProcessorLink(db, id);
  if (!link) throw new NotFoundError("not_found", `Processor link "${id}" does not exist`);
  return link;
}

function refuseDuplicate<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error) => {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        "duplicate",
        "This processor customer is already linked to an account",
      );
    }
    throw error;
  });
}

export async function listProcessorLinks(deps: AppDeps, accountId: string, params: ListParams) {
  await requireAccount(deps.db, accountId);
  return listProcessorLinkRows(deps.db, accountId, params);
}

export async function createProcessorLink(
  deps: AppDeps,
  accountId: string,
  input: { processor: string; externalCustomerId: string },
): Promise<ProcessorLinkRecord> {
  await requireAccount(deps.db, accountId);
  const id = deps.ids.uuid();
  await refuseDuplicate(() =>
    insertProcessorLink(deps.db, { id, accountId, ...input, now: deps.clock.now() })
  );
  return (await findProcessorLink(deps.db, id))!;
}

export async function updateProcessorLink(
  deps: AppDeps,
  id: string,
  changes: ProcessorLinkChanges,
): Promise<ProcessorLinkRecord> {
  await requireProcessorLink(deps.db, id);
  await refuseDuplicate(() => updateProcessorLinkRow(deps.db, id, changes, deps.clock.now()));
  return (await findProcessorLink(deps.db, id))!;
}

export async function deleteProcessorLink(deps: AppDeps, id: string): Promise<void> {
  await requireProcessorLink(deps.db, id);
  await deleteProcessorLinkRow(deps.db, id);
}
