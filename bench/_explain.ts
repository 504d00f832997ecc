/** The query plan of a scenario's pgbench statement, noted under the scenario in the report. */
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "../app/db/database.ts";

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/**
 * EXPLAIN ANALYZE of a scenario's pgbench statement (with its `-D` values as parameters):
 * the scans and indexes it uses and its execution time, to show searches hit their trigram
 * indexes. Scripts with meta-commands (`\set`) are skipped.
 */
export async function explain(
  db: Kysely<Database>,
  script: string,
  defines: Record<string, string>,
): Promise<string | undefined> {
  if (script.includes("\\")) return undefined;
  const names: string[] = [];
  const text = script.trim().replace(/;$/, "").replace(/:(p\d+)/g, (_, name: string) => {
    names.push(name);
    return `$${names.length}`;
  });
  const { rows } = await db.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, names.map((n) => defines[n])),
  );
  const [top] = rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode; "Execution Time": number }>;
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (/Scan/.test(node["Node Type"])) {
      scans.push(
        `${node["Node Type"]}${node["Index Name"] ? ` on ${node["Index Name"]}` : ""}${
          node["Relation Name"] ? ` (${node["Relation Name"]})` : ""
        }`,
      );
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top!.Plan);
  return `plan: ${scans.join("; ")}; executed in ${top!["Execution Time"].toFixed(2)} ms`;
}
