import postgres from "postgres";
const env = JSON.parse(Deno.readTextFileSync("/tmp/perf/env.json"));
const sql = postgres(env.url, {
  max: 10,
  connection: { plan_cache_mode: "force_custom_plan" },
  fetch_types: Deno.env.get("FT") !== "0",
});
const text = env.pscript.replace(/:p(\d)/g, "$$$1").replace(/;\n$/, "");
const params = [env.pdef.p1, 25, 0];
Deno.serve({ port: 18080, hostname: "127.0.0.1" }, async () => {
  const rows = await sql.unsafe(text, params, { prepare: true });
  return Response.json({ data: Array.from(rows), total: rows[0]?.__total });
});
Deno.addSignalListener("SIGINT", () => Deno.exit(0));
