/**
 * The house rules of ../shared/ARCHITECTURE.md as code: each test reads the source tree and
 * names every place that breaks one rule (file:line and why), so a change that breaks the
 * layering, ownership or grain fails CI instead of waiting for a review.
 */
import { assertEquals } from "./_helpers/assert.ts";

const ROOT = new URL("../", import.meta.url);
const SOURCE_DIRS = [
  "app",
  "domain",
  "server",
  "cli",
  "client",
  "bench",
  "scripts",
  "migrations",
  "tests",
];
const MAX_LINES = 500;

interface SourceFile {
  /** Path from the project root, with forward slashes: `app/pos/sales.ts`. */
  path: string;
  text: string;
  lines: string[];
}

function walk(dir: string): string[] {
  const paths: string[] = [];
  for (const entry of Deno.readDirSync(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) paths.push(...walk(path));
    // (client/schema.d.ts is generated, and not committed.)
    else if (entry.isFile && path.endsWith(".ts") && !path.endsWith(".d.ts")) paths.push(path);
  }
  return paths;
}

const FILES: SourceFile[] = [...SOURCE_DIRS.flatMap(walk), "main.ts"].sort().map((path) => {
  const text = Deno.readTextFileSync(new URL(path, ROOT));
  return { path, text, lines: text.split("\n") };
});

const isTest = (f: SourceFile) => f.path.startsWith("tests/") || f.path.endsWith("_test.ts");
const PRODUCTION = FILES.filter((f) => !isTest(f));
const under = (prefix: string) => PRODUCTION.filter((f) => f.path.startsWith(prefix));

/** Where in the file an offset is (1-based line). */
function lineAt(file: SourceFile, offset: number): number {
  return file.text.slice(0, offset).split("\n").length;
}

/** Every match of `pattern` (global) in the file, outside comments, as `path:line`. */
function findAll(file: SourceFile, pattern: RegExp): Array<{ at: string; match: RegExpExecArray }> {
  const code = stripComments(file.text);
  const found: Array<{ at: string; match: RegExpExecArray }> = [];
  for (const match of code.matchAll(pattern)) {
    found.push({ at: `${file.path}:${lineAt(file, match.index)}`, match });
  }
  return found;
}

/** Blanks out comments (keeping offsets), so documentation may mention what code may not do. */
function stripComments(text: string): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|(^|[^:"'`\\])\/\/[^\n]*/g,
    (m, prefix: string | undefined) =>
      (prefix ?? "") + m.slice((prefix ?? "").length).replace(/[^\n]/g, " "),
  );
}

// ------------------------------------------------------------------------------ imports

interface Import {
  from: SourceFile;
  /** Resolved path from the project root, or the bare specifier (`kysely`, `npm:...`). */
  target: string;
  names: string[];
  typeOnly: boolean;
  line: number;
}

/** `import … from "x"`, `export … from "x"` (the clause holds no `;`, `=`, `(` or quote) and `import("x")`. */
const IMPORT_PATTERN =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;=()"'`]*?)\s*from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  const parts = from.split("/").slice(0, -1);
  for (const segment of specifier.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  return parts.join("/");
}

function importsOf(file: SourceFile): Import[] {
  const code = stripComments(file.text);
  const imports: Import[] = [];
  for (const match of code.matchAll(IMPORT_PATTERN)) {
    const specifier = match[4] ?? match[5]!;
    const clause = match[3] ?? "";
    const names = [
      ...clause.replace(/^type\s+/, "").matchAll(
        /(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+[\w$]+)?/g,
      ),
    ]
      .map((m) => m[1]!)
      .filter((name) => name !== "type");
    imports.push({
      from: file,
      target: resolve(file.path, specifier),
      names,
      typeOnly: Boolean(match[2]),
      line: lineAt(file, match.index),
    });
  }
  return imports;
}

const IMPORTS = PRODUCTION.flatMap(importsOf);

Deno.test("the import reader sees the tree's imports (a guard for the guards)", () => {
  const expected = PRODUCTION.reduce(
    (n, f) =>
      n +
      [...stripComments(f.text).matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']/gm)].length,
    0,
  );
  assertEquals(IMPORTS.filter((i) => i.names.length > 0 || i.typeOnly).length >= expected, true);
  assertEquals(
    IMPORTS.some((i) => i.from.path === "server/app.ts" && i.target === "app/deps.ts"),
    true,
  );
});

function report(violations: string[]): void {
  assertEquals(violations, [], `\n${violations.join("\n")}\n`);
}

Deno.test("domain/ imports nothing outside domain/ (no I/O libraries, no app code)", () => {
  report(
    IMPORTS.filter((i) => i.from.path.startsWith("domain/") && !i.target.startsWith("domain/"))
      .map((i) => `${i.from.path}:${i.line} imports ${i.target}`),
  );
});

Deno.test("app/ never imports the drivers (server/, cli/, main.ts), bench/ or scripts/", () => {
  report(
    IMPORTS.filter((i) =>
      i.from.path.startsWith("app/") && /^(server|cli|bench|scripts)\/|^main\.ts$/.test(i.target)
    ).map((i) => `${i.from.path}:${i.line} imports ${i.target}`),
  );
});

Deno.test("server/ never imports cli/, and migrations import no project code", () => {
  report([
    ...IMPORTS.filter((i) => i.from.path.startsWith("server/") && i.target.startsWith("cli/")),
    ...IMPORTS.filter((i) =>
      i.from.path.startsWith("migrations/") && /^(app|domain|server|cli)\//.test(i.target)
    ),
  ].map((i) => `${i.from.path}:${i.line} imports ${i.target}`));
});

Deno.test("the drivers (server/, cli/) take only find*/list*/count* reads from repositories", () => {
  report(
    IMPORTS.filter((i) => /^(server|cli)\//.test(i.from.path) && i.target.endsWith("_repo.ts"))
      .flatMap((i) =>
        i.names.filter((name) => !/^(find|list|count|is|has)[A-Z]|^[A-Z]/.test(name))
          .map((name) => `${i.from.path}:${i.line} imports the write ${name} from ${i.target}`)
      ),
  );
});

Deno.test("a feature takes only reads and locks from another feature's repositories", () => {
  report(
    IMPORTS.filter((i) => {
      const from = featureOf(i.from.path);
      return from && i.target.endsWith("_repo.ts") && featureOf(i.target) !== from;
    }).flatMap((i) =>
      // `select*`: an expression the other feature's read selects (e.g. a ticket's amount paid).
      i.names.filter((name) => !/^(find|list|count|lock|select|is|has)[A-Z]|^[A-Z]/.test(name))
        .map((name) => `${i.from.path}:${i.line} imports the write ${name} from ${i.target}`)
    ),
  );
});

Deno.test("source files import each other without cycles", () => {
  const graph = new Map<string, string[]>();
  for (const f of PRODUCTION) graph.set(f.path, []);
  for (const i of IMPORTS) if (graph.has(i.target)) graph.get(i.from.path)!.push(i.target);
  report(stronglyConnected(graph).filter((c) => c.length > 1).map((c) => c.join(" -> ")));
});

/** Tarjan's strongly connected components. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  function visit(node: string): void {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  }
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return components;
}

// ------------------------------------------------------------------------------ SQL

/** Where SQL may be written: repositories, the database layer and migrations. */
function maySpeakSql(path: string): boolean {
  return path.endsWith("_repo.ts") || path.startsWith("app/db/") || path.startsWith("migrations/");
}

const SQL_PATTERN =
  /\bsql(?:<[^>]*>)?`|\bsql\.(?:raw|table|ref|id|join|lit|val)\(|\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\.transaction\(\)/g;

Deno.test("SQL appears only in *_repo.ts, app/db/ and migrations/", () => {
  const drivers = [...under("app/"), ...under("server/"), ...under("cli/"), ...under("main.ts")];
  report(
    drivers.filter((f) => !maySpeakSql(f.path))
      .flatMap((f) => findAll(f, SQL_PATTERN).map((m) => `${m.at} ${m.match[0]}`)),
  );
});

// ------------------------------------------------------------------------------ ownership

/** The feature folder of an app/ path (`app/pos/sales.ts` → `pos`), if any. */
function featureOf(path: string): string | undefined {
  return /^app\/([a-z_]+)\//.exec(path)?.[1];
}

/** table → owning feature, from the keys of each `app/<feature>/<feature>_tables.ts`. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const f of under("app/").filter((f) => f.path.endsWith("_tables.ts"))) {
    const block = /export interface \w+Tables\s*\{([\s\S]*?)\n\}/.exec(f.text)?.[1] ?? "";
    for (const m of block.matchAll(/^\s+([a-z_]+):/gm)) owners.set(m[1]!, featureOf(f.path)!);
  }
  return owners;
}

const OWNERS = tableOwners();

/** Statements that write a table, or read it to lock it, with the table's name in group 1. */
const WRITE_PATTERNS = [
  /\.(?:insertInto|updateTable|deleteFrom)\(\s*"([a-z_]+)/g,
  /\b(?:deleteById|softDeleteById)\(\s*\w+,\s*"([a-z_]+)"/g,
  /\b(?:INSERT\s+INTO|DELETE\s+FROM)\s+"?([a-z_]+)/g,
  /\bUPDATE\s+"?([a-z_]+)"?(?:\s+(?:AS\s+)?[a-z_]+)?\s+SET\b/g,
];
/** A `selectFrom("t")` chain up to its `execute…(`: a lock when it holds `for…Update`/`forShare`. */
const LOCK_PATTERN = /\.selectFrom\(\s*"([a-z_]+)[^"]*"\)((?:(?!\.execute)[\s\S])*?)\.execute/g;

Deno.test("every table is written (and locked) only by the feature that owns it", () => {
  assertEquals(OWNERS.size > 20, true, "the table owners were not found");
  const violations: string[] = [];
  for (const f of under("app/")) {
    const feature = featureOf(f.path);
    if (!feature || feature === "db") continue;
    const touched = WRITE_PATTERNS.flatMap((p) => findAll(f, p));
    for (const m of findAll(f, LOCK_PATTERN)) {
      if (/\.for(?:NoKey)?Update\(|\.forShare\(|\.forKeyShare\(/.test(m.match[2]!)) touched.push(m);
    }
    for (const { at, match } of touched) {
      const owner = OWNERS.get(match[1]!);
      if (owner && owner !== feature) {
        violations.push(`${at} ${feature} writes or locks "${match[1]}" (owned by ${owner})`);
      }
    }
  }
  report(violations.sort());
});

// ------------------------------------------------------------------------------ clock, ids, state

Deno.test("app/ and domain/ take time and ids from deps.clock and deps.ids only", () => {
  const pattern = /\bnew Date\(\s*\)|\bDate\.now\(\)|\buuidv7\(\s*\)|crypto\.randomUUID\(\)/g;
  report(
    [...under("app/"), ...under("domain/")].filter((f) => f.path !== "app/ids.ts")
      .flatMap((f) => findAll(f, pattern).map((m) => `${m.at} ${m.match[0]}`)),
  );
});

Deno.test("app/ and domain/ hold no module-level mutable state (no top-level let/var)", () => {
  report(
    [...under("app/"), ...under("domain/")]
      .flatMap((f) => findAll(f, /^(?:export\s+)?(?:let|var)\s+[\w$]+/gm))
      .map((m) => `${m.at} ${m.match[0]}`),
  );
});

// ------------------------------------------------------------------------------ output

Deno.test("ops commands print only through cli/_output.ts, which makes stored text terminal-safe", () => {
  const pattern = /\bconsole\.(?:log|error|warn|info|debug)\(|\bDeno\.std(?:out|err)\.write/g;
  report(
    under("cli/commands/").flatMap((f) => findAll(f, pattern).map((m) => `${m.at} ${m.match[0]}`)),
  );
});

// ------------------------------------------------------------------------------ grain

Deno.test(`no source file passes ${MAX_LINES} lines`, () => {
  report(
    FILES.filter((f) => f.lines.length > MAX_LINES).map((f) =>
      `${f.path}: ${f.lines.length} lines`
    ),
  );
});

Deno.test("fixtures and benchmarks live outside domain/", () => {
  report(
    FILES.filter((f) =>
      f.path.startsWith("domain/") &&
      (/_fixtures?\.ts$|_bench\.ts$/.test(f.path) || /\bDeno\.bench\(/.test(f.text))
    ).map((f) => f.path),
  );
});
