/**
 * The embedded engine's statement cache. PGlite's `query()` (Kysely's PGlite driver calls it)
 * sends every statement as an unnamed one: six calls into the WASM engine (parse, describe
 * the statement, bind, describe the portal, execute, sync), and PostgreSQL parses, analyses
 * and plans the text every time. An API runs a few hundred distinct statements, so each is
 * kept here as a named prepared statement of PGlite's one session, parsed once with its
 * parameter types known, and runs as one call: bind, describe, execute, sync, whose answer is
 * read by pglite_replies.ts. The product search over 50,000 products went from 2.3 ms to
 * 1.2 ms a query this way.
 *
 * A prepared statement is planned as the PostgreSQL pools plan theirs (connect.ts): a page
 * query for its values on every run (`force_custom_plan`), unless its list plans it once
 * (`force_generic_plan`), and anything else under `auto`. `plan_cache_mode` is read when a
 * statement runs, so it is SET in the same call when the session's differs; a rollback undoes
 * a SET made in its transaction, so after a transaction ends the session's is taken as unknown.
 *
 * Only DML is prepared. Anything else (DDL, SET, VACUUM...) runs as before, and a statement
 * that may change a table (not SET, SHOW, a savepoint...) drops every prepared statement:
 * PostgreSQL replans them after DDL, but refuses one whose result columns changed.
 */
import { parse, type PGlite, protocol } from "@electric-sql/pglite";
import type { CompiledQuery, QueryResult } from "kysely";
import { isPageQuery, isPlannedOnce } from "./page_statements.ts";
import { concatBytes } from "../../domain/bytes.ts";
import { readReplies, ReplyBuffer } from "./pglite_replies.ts";

type PlanMode = "auto" | "force_custom_plan" | "force_generic_plan";

interface Prepared {
  name: string;
  parameterTypes: number[];
  planMode: PlanMode;
}

/** Statements kept at most; the least recently run is closed past it. */
const MAX_PREPARED = 500;
/** DML, after the comment a planned-once page query starts with. */
const PREPARABLE = /^\s*(?:\/\*.*?\*\/\s*)?(?:select|insert|update|delete|with)\b/is;
/** Statements that leave every table as it was. */
const LEAVES_TABLES =
  /^\s*(?:set|show|savepoint|release|rollback|begin|start|commit|lock|vacuum|analyze|checkpoint)\b/i;

const { serialize } = protocol;

function planModeOf(sqlText: string): PlanMode {
  if (isPlannedOnce(sqlText)) return "force_generic_plan";
  return isPageQuery(sqlText) ? "force_custom_plan" : "auto";
}

export class PreparedStatements {
  readonly #pglite: PGlite;
  /** By SQL text, least recently run first. */
  readonly #prepared = new Map<string, Prepared>();
  /** Names of statements dropped from the map and not yet closed in the session. */
  #toClose: string[] = [];
  #nextId = 0;
  /** The session's plan_cache_mode, when known. */
  #planMode: PlanMode | undefined;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  /**
   * Runs `query`: prepared when it is DML, else through `unprepared` (the driver's own way).
   * The caller holds the session (pglite_dialect.ts serializes its use).
   */
  async execute<R>(
    query: CompiledQuery,
    unprepared: (query: CompiledQuery) => Promise<QueryResult<R>>,
  ): Promise<QueryResult<R>> {
    if (!PREPARABLE.test(query.sql)) {
      try {
        return await unprepared(query);
      } finally {
        if (!LEAVES_TABLES.test(query.sql)) this.#forgetAll();
      }
    }
    const pglite = this.#pglite;
    const inTransaction = pglite.isInTransaction();
    if (this.#toClose.length > 0) await this.#closeForgotten();
    const statement = this.#prepared.get(query.sql) ?? await this.#prepare(query.sql);
    // Most recently run last.
    this.#prepared.delete(query.sql);
    this.#prepared.set(query.sql, statement);

    const values = query.parameters.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[statement.parameterTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages: Uint8Array[] = [];
    const setsPlanMode = statement.planMode !== this.#planMode;
    if (setsPlanMode) messages.push(serialize.query(`SET plan_cache_mode = ${statement.planMode}`));
    messages.push(
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    );
    this.#planMode = undefined;
    const replies = new ReplyBuffer();
    await pglite.execProtocolRawStream(concatBytes(messages), {
      syncToFs: !inTransaction,
      onRawData: replies.add,
    });
    const result = readReplies<R>(replies.bytes(), pglite.parsers);
    this.#planMode = statement.planMode;
    return result;
  }

  /** A transaction ended (or rolled back to a savepoint): its SETs may have been undone. */
  forgetPlanMode(): void {
    this.#planMode = undefined;
  }

  async #prepare(sqlText: string): Promise<Prepared> {
    const name = `kysely_${this.#nextId++}`;
    const replies = await this.#pglite.execProtocolStream(
      concatBytes([
        serialize.parse({ name, text: sqlText }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = {
      name,
      parameterTypes: parse.parseDescribeStatementResults(replies),
      planMode: planModeOf(sqlText),
    };
    if (this.#prepared.size >= MAX_PREPARED) {
      const [oldestSql, oldest] = this.#prepared.entries().next().value!;
      this.#prepared.delete(oldestSql);
      this.#toClose.push(oldest.name);
    }
    return statement;
  }

  #forgetAll(): void {
    for (const statement of this.#prepared.values()) this.#toClose.push(statement.name);
    this.#prepared.clear();
  }

  /**
   * Closes the dropped statements. Their names are never reused, so one that cannot be closed
   * now (a failed transaction refuses it) only stays allocated.
   */
  async #closeForgotten(): Promise<void> {
    const names = this.#toClose;
    this.#toClose = [];
    await this.#pglite.execProtocolStream(
      concatBytes([...names.map((name) => serialize.close({ type: "S", name })), serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
  }
}
