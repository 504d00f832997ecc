/** Wire shapes of the scan (API §17). */
import { z } from "zod";
import { MAX_SCAN_CODE_LENGTH } from "../../domain/counter/scan_code.ts";

export const SCAN_KINDS = [
  "product",
  "unit",
  "repair_ticket",
  "rental",
  "account",
  "transaction",
] as const;

export const scanParams = z.object({
  code: z.string().min(1).max(4096).describe(
    `The scanned or typed code, URL-encoded (at most ${MAX_SCAN_CODE_LENGTH} characters)`,
  ),
});

export const scanCandidateSchema = z.object({
  kind: z.enum(SCAN_KINDS),
  id: z.uuid(),
  label: z.string(),
});

export const scanResultSchema = scanCandidateSchema.extend({
  record: z.record(z.string(), z.unknown()).describe(
    "The record as its own GET returns it (product, unit, repair ticket, rental, account or " +
      "transaction, by `kind`)",
  ),
}).meta({ id: "ScanResult" });
