/**
 * `ops scan CODE [--format table|json|csv]`: what a scanned or typed code names (API §17,
 * `GET /scan/:code`), on the database directly (as the system: every kind) or through the
 * server that holds it (as the logged-in user: the kinds they may view). Several matches exit
 * 1 naming each candidate; a misread barcode exits 1 with `invalid_check_digit`.
 */
import type { Command } from "commander";
import { scanCode, type ScanResult } from "../../app/counter/scan.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { ConflictError } from "../../domain/errors.ts";
import { ApiError } from "../_api.ts";
import { CliError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { outputFormat, printRows, withFormatOptions } from "../_output.ts";
import { run } from "../_transport.ts";

interface Candidate {
  kind: string;
  id: string;
  label: string;
}

function ambiguity(candidates: readonly Candidate[]): CliError {
  const named = candidates.map((c) => `${c.kind} ${c.label} (${c.id})`).join("; ");
  return new CliError(`${candidates.length} records match this code: ${named} (ambiguous)`);
}

export function registerScan(program: Command): void {
  const scan = withFormatOptions(
    program.command("scan")
      .description(
        "Find the record a scanned or typed code names (SKU, UPC, serial, R-/L-/A-/S- number)",
      )
      .argument("<code>", "the code, as scanned or typed"),
  ).action(async (code: string, options: { format?: string; json?: boolean }) => {
    const format = outputFormat(options);
    let result: ScanResult;
    try {
      result = await run<ScanResult>({
        direct: (deps) => scanCode(deps, SYSTEM_ACTOR, code),
        server: (api) => api.request<ScanResult>("GET", `/scan/${encodeURIComponent(code.trim())}`),
      });
    } catch (error) {
      if (error instanceof ConflictError && error.code === "ambiguous") {
        throw ambiguity((error.extensions?.candidates ?? []) as Candidate[]);
      }
      if (error instanceof ApiError && error.code === "ambiguous") {
        throw ambiguity((error.problem.candidates ?? []) as Candidate[]);
      }
      throw error;
    }
    printRows(
      [result],
      [
        { header: "Kind", value: (r) => r.kind },
        { header: "Label", value: (r) => r.label },
        { header: "Id", value: (r) => r.id },
      ],
      format,
      { json: result },
    );
  });
  describe(scan, {
    examples: [
      "deno task ops scan 036000291452",
      "deno task ops scan R-000123 --json",
      "deno task ops scan S-0001234",
    ],
    env: BUSINESS_ENV,
  });
}
