/** Use cases of payment-processor links: (processor, externalCustomerId) is unique. */
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { AppDeps } from "../deps.ts";
import { isUniqueViolation } from "../db/db_errors.ts";
import type { ListParams } from "../schemas.ts";
import {
  deleteProcessorLinkRow,
  findProcessorLink,
  insertProcessorLink,
  listProcessorLinks as listProcessorLinkRows,
  type ProcessorLinkRecord,
  updateProcessorLinkRow,
} from "./accounts_repo.ts";
import { requireAccount } from "./accounts.ts";

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
  changes: { processor?: string; externalCustomerId?: string },
): Promise<ProcessorLinkRecord> {
  if (!(await findProcessorLink(deps.db, id))) {
    throw new NotFoundError(`Processor link "${id}" does not exist`);
  }
  await refuseDuplicate(() => updateProcessorLinkRow(deps.db, id, changes, deps.clock.now()));
  return (await findProcessorLink(deps.db, id))!;
}

export async function deleteProcessorLink(deps: AppDeps, id: string): Promise<void> {
  if (!(await findProcessorLink(deps.db, id))) {
    throw new NotFoundError(`Processor link "${id}" does not exist`);
  }
  await deleteProcessorLinkRow(deps.db, id);
}
