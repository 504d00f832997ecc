/**
 * What the upload routes share (`/files`, repair photos, storage files): the body limit of a
 * multipart upload, the form's one file part with its text fields, and the replay codec that
 * keeps a signed URL (a credential) out of the Idempotency-Key table.
 */
import type { AppDeps } from "../../app/deps.ts";
import { uploadLimits } from "../../app/files/files.ts";
import { signFileUrl } from "../../app/files/signed_urls.ts";
import { ValidationError } from "../../domain/errors.ts";
import type { ReplayCodec } from "../middleware/idempotency.ts";
import type { MultipartPart } from "../middleware/multipart.ts";

/** Room for the multipart envelope and the text fields besides the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** A route's `maxBodyBytes`: config `upload.maxBytes` plus the form's envelope. */
export function uploadBodyLimit(deps: AppDeps): () => Promise<number> {
  return async () => (await uploadLimits(deps)).maxBytes + FORM_OVERHEAD_BYTES;
}

/** The form's text fields and its one file part (400 naming the field otherwise). */
export function fileAndFields(
  form: MultipartPart[],
): { fields: Record<string, string>; file: Uint8Array } {
  const fields: Record<string, string> = {};
  let file: Uint8Array | undefined;
  const issues: { path: string; message: string }[] = [];
  const decoder = new TextDecoder();
  for (const part of form) {
    if (part.name === "file") {
      if (file || part.filename === undefined) {
        issues.push({ path: "file", message: "Expected exactly one file part" });
      } else file = part.content;
    } else if (part.filename !== undefined || Object.hasOwn(fields, part.name)) {
      issues.push({ path: part.name, message: "Expected one text value" });
    } else fields[part.name] = decoder.decode(part.content);
  }
  if (!file && issues.length === 0) issues.push({ path: "file", message: "A file is required" });
  if (issues.length > 0) throw new ValidationError(issues);
  return { fields, file: file! };
}

/**
 * Upload responses carry a signed URL (a credential for 15 minutes): the replay table keeps
 * the metadata without it, and a replay signs the file's URL again.
 */
export function signedFileReplay(deps: AppDeps): ReplayCodec {
  return {
    store: (body) => ({ ...(body as Record<string, unknown>), url: undefined }),
    restore: async (stored) => {
      const file = stored as { id: string; path: string };
      return { ...file, url: (await signFileUrl(deps.config, file, deps.clock.now())).url };
    },
  };
}
