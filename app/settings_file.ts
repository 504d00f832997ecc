/**
 * The shop's settings file (`shop.env` in the working directory, or the file `SHOP_ENV_FILE`
 * names): `NAME=value` lines, read by app/config.ts for the server and every `ops` command
 * alike, and rewritten by `ops restore --move` when the shop's database moves.
 *
 * The format is the common subset of dotenv files: blank lines and `# comments`, an optional
 * `export ` before the name, a value as it is or in single quotes (taken literally) or double
 * quotes (`\n`, `\"` and `\\` unescaped). Only the variables of the configuration may appear: a
 * misspelt name is an error naming the file and line, never silently ignored.
 */

export interface SettingsFileProblem {
  line: number;
  message: string;
}

export interface ParsedSettings {
  values: Record<string, string>;
  problems: SettingsFileProblem[];
}

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

function unquote(raw: string): string | undefined {
  if (raw.startsWith("'")) {
    return raw.length >= 2 && raw.endsWith("'") ? raw.slice(1, -1) : undefined;
  }
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) return undefined;
    return raw.slice(1, -1).replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
  }
  // Unquoted: a ` #` starts a comment.
  return raw.replace(/\s+#.*$/, "");
}

/** Parses the text of a settings file; `known` are the names it may set. */
export function parseSettings(text: string, known: ReadonlySet<string>): ParsedSettings {
  const values: Record<string, string> = {};
  const problems: SettingsFileProblem[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    if (/^\s*(#.*)?$/.test(content)) return;
    const match = LINE.exec(content);
    if (!match) {
      problems.push({ line, message: "expected NAME=value" });
      return;
    }
    const [, name, raw] = match as unknown as [string, string, string];
    if (!known.has(name)) {
      problems.push({ line, message: `unknown variable ${name}` });
      return;
    }
    const value = unquote(raw);
    if (value === undefined) problems.push({ line, message: `unterminated quote in ${name}` });
    else values[name] = value;
  });
  return { values, problems };
}

/** The text of the file, or undefined when there is none. */
export function readSettingsText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

function quoted(value: string): string {
  return /^[A-Za-z0-9_./:@%+,=?&-]*$/.test(value)
    ? value
    : `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`;
}

/**
 * Sets (or, with `undefined`, removes) variables in the file, keeping every other line and
 * comment as it is; a new variable is appended. Written to a temporary file of mode 0600 (it
 * may hold a database password) and renamed into place, so a reader sees the old file or the
 * new one, never half of one.
 */
export async function updateSettingsFile(
  path: string,
  changes: Record<string, string | undefined>,
  header: string,
): Promise<void> {
  const existing = readSettingsText(path);
  const lines = existing === undefined ? [header] : existing.replace(/\n$/, "").split(/\r?\n/);
  const pending = new Map(Object.entries(changes));
  const kept = lines.flatMap((content) => {
    const name = LINE.exec(content)?.[1];
    if (!name || !pending.has(name)) return [content];
    const value = pending.get(name);
    pending.delete(name);
    return value === undefined ? [] : [`${name}=${quoted(value)}`];
  });
  for (const [name, value] of pending) {
    if (value !== undefined) kept.push(`${name}=${quoted(value)}`);
  }
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  const temporary = await Deno.makeTempFile({ dir, prefix: ".shop-env-" });
  try {
    await Deno.chmod(temporary, 0o600).catch(() => {});
    await Deno.writeTextFile(temporary, `${kept.join("\n")}\n`);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
