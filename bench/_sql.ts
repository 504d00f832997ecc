/**
 * The exact SQL an endpoint runs, for pgbench: a repository function is called on a
 * compile-only Kysely (PostgreSQL compiler, dummy driver) that records every query, and the
 * statement becomes a pgbench script whose `$n` parameters are `:pn` variables (`-D`), so
 * pgbench with `-M prepared` sends it as the app does: a prepared statement with parameters.
 */
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from "kysely";
import type { Database } from "../app/db/database.ts";

/** Every query `work` runs on a compile-only database, compiled as for PostgreSQL. */
export async function captureSql(
  work: (db: Kysely<Database>) => Promise<unknown>,
): Promise<CompiledQuery[]> {
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === "query") captured.push(event.query);
    },
  });
  try {
    await work(db);
  } finally {
    await db.destroy();
  }
  return captured;
}

/** One compiled statement as a pgbench script (one line) and its `-D` variables. */
export function pgbenchStatement(query: CompiledQuery): {
  script: string;
  defines: Record<string, string>;
} {
  const script = `${query.sql.replace(/\$(\d+)/g, (_, n) => `:p${n}`).replace(/\s+/g, " ")};\n`;
  const defines = Object.fromEntries(
    query.parameters.map((value, i) => [`p${i + 1}`, String(value)]),
  );
  return { script, defines };
}

/**
 * The single statement `work` runs, as a pgbench script with variables, and as compiled
 * (`query`, for the bare-stack yardstick).
 */
export async function pgbenchFor(work: (db: Kysely<Database>) => Promise<unknown>) {
  const queries = await captureSql(work);
  if (queries.length !== 1) throw new Error(`Expected one query, captured ${queries.length}`);
  const query = queries[0]!;
  return { ...pgbenchStatement(query), query: { sql: query.sql, parameters: query.parameters } };
}
