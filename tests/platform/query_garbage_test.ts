/**
 * A query's rows are garbage once its caller has read them: they must die young, in V8's cheap
 * young-generation collections (scavenges), not survive into the old generation. Two things
 * kept every result alive through scavenges until the next full collection, which made each
 * scavenge copy megabytes (5-7 ms pauses, several a second under load: the p99 of every list
 * endpoint) and cost ~25% throughput:
 *  - postgres.js's Query kept `resolve`/`reject` as closures over its constructor (patched in
 *    vendor/postgres, see PATCHES.md);
 *  - the reachability watch's entry kept the promise's `reject` after the query settled
 *    (app/db/reachability.ts, `ended`).
 * Measured here over 8,000 queries: 3.5% of the allocated bytes survive scavenges with both
 * fixes; 19% without the reachability one, 74% without the postgres.js one.
 */
import { assert } from "../_helpers/assert.ts";
import { testServerUrl } from "../_helpers/test_db.ts";

const childScript = new URL("../_helpers/query_garbage_child.ts", import.meta.url).pathname;

interface Scavenge {
  allocated: number;
  promoted: number;
  new_space_survived: number;
}

Deno.test({
  name: "query results die young: scavenges keep under 8% of what the queries allocated",
  ignore: !testServerUrl(),
  async fn() {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--v8-flags=--trace-gc-nvp", childScript],
      env: { DATABASE_URL: testServerUrl()!, QUERIES: "8000", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert(output.success, `the child failed: ${stderr}`);
    const scavenges: Scavenge[] = [];
    for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
      const json = line.slice(line.indexOf("{"));
      if (!json.includes('"gc":"s"')) continue;
      try {
        scavenges.push(JSON.parse(json));
      } catch {
        // A line cut by the pipe: one collection fewer in the average.
      }
    }
    assert(scavenges.length >= 20, `only ${scavenges.length} scavenges were traced`);
    const sum = (key: keyof Scavenge) => scavenges.reduce((total, s) => total + s[key], 0);
    const survived = (sum("new_space_survived") + sum("promoted")) / sum("allocated");
    assert(
      survived < 0.08,
      `${(survived * 100).toFixed(1)}% of the allocated bytes survived scavenges ` +
        `(${scavenges.length} scavenges)`,
    );
  },
});
