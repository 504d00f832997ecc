/**
 * The `ops` side of the server's `/v1` API: JSON requests with the session's bearer token, and
 * every failure turned into one line that names the fix (API §16): an unreachable server names
 * the URL tried and `OPS_SERVER`; a refused token names `ops login`; a rate limit says when to
 * retry (from `Retry-After`); a problem+json answer gives its `detail` and `code`.
 */
import { CliError } from "./_errors.ts";

export interface Problem {
  status: number;
  code?: string;
  detail?: string;
  title?: string;
  errors?: Array<{ path: string; message: string }>;
  /** Extension members (e.g. `candidates` of an ambiguous scan). */
  [extension: string]: unknown;
}

/** A problem+json answer of the server (exit 2 for input the server refused as invalid). */
export class ApiError extends CliError {
  readonly status: number;
  readonly code: string | undefined;
  /** The whole problem document, extension members included. */
  readonly problem: Problem;
  constructor(message: string, problem: Problem) {
    const usage = problem.status === 400 &&
      (problem.code === "validation_failed" || problem.code === "bad_request");
    super(message, { exitCode: usage ? 2 : 1 });
    this.name = "ApiError";
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** `Retry-After` (seconds or an HTTP date) as "12 minutes (at 16:04)". */
export function retryAfterText(header: string | null, now = Date.now()): string {
  if (!header) return "a few minutes";
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header)
    : Math.max(0, (Date.parse(header) - now) / 1000);
  if (!Number.isFinite(seconds)) return "a few minutes";
  const at = new Date(now + seconds * 1000).toTimeString().slice(0, 5);
  const span = seconds < 90 ? `${Math.ceil(seconds)} s` : `${Math.ceil(seconds / 60)} minutes`;
  return `${span} (at ${at})`;
}

/** "connection refused" out of Deno's `fetch failed` → `error sending request …: …: Connection refused (os error 111)`. */
function connectionCause(error: unknown): string {
  let message = "";
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    message = e.message;
  }
  if (error instanceof DOMException && error.name === "TimeoutError") return "no answer in time";
  const last = message.split(": ").at(-1) ?? "";
  return last.replace(/\s*\(os error \d+\)$/, "").toLowerCase();
}

/** The answer's body as JSON (a problem document or the data), undefined when it is not JSON. */
async function problemOrJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export class ApiClient {
  readonly server: string;
  readonly #token: string | undefined;
  readonly #tokenSource: "env" | "stored" | undefined;
  readonly #email: string | undefined;

  constructor(
    server: string,
    session: { token?: string; source?: "env" | "stored"; email?: string } = {},
  ) {
    this.server = server;
    this.#token = session.token;
    this.#tokenSource = session.token ? session.source : undefined;
    this.#email = session.email;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.#send(method, path, options.query, {
      accept: "application/json",
      body: options.body,
      timeoutMs: 120_000,
    });
    const body = await problemOrJson(response);
    if (response.ok) return body as T;
    throw this.#failure(response, (body ?? {}) as Partial<Problem>);
  }

  /**
   * A GET whose answer is not JSON (a backup archive): the response to read as a stream, or
   * the same one-line errors as `request`. No overall timeout: the body may take long.
   */
  async download(path: string, options: Pick<RequestOptions, "query"> = {}): Promise<Response> {
    const response = await this.#send("GET", path, options.query, {
      accept: "application/octet-stream",
    });
    if (response.ok) return response;
    throw this.#failure(response, ((await problemOrJson(response)) ?? {}) as Partial<Problem>);
  }

  /** Sends one request with the session's token; an unreachable server is one line naming the fix. */
  async #send(
    method: string,
    path: string,
    query: RequestOptions["query"],
    options: { accept: string; body?: unknown; timeoutMs?: number },
  ): Promise<Response> {
    const url = new URL(`${this.server}/v1${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: options.accept };
    if (this.#token) headers.Authorization = `Bearer ${this.#token}`;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    try {
      return await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
      });
    } catch (error) {
      const cause = connectionCause(error);
      throw new CliError(
        `Cannot reach the server at ${this.server}${cause ? ` (${cause})` : ""}: start it, or ` +
          "set OPS_SERVER to its URL (or log in to it with `ops login --server URL`)",
        { cause: error },
      );
    }
  }

  #failure(response: Response, problem: Partial<Problem>): ApiError {
    const full: Problem = { ...problem, status: response.status };
    const detail = problem.detail ?? problem.title ?? response.statusText;
    const code = problem.code ? ` (${problem.code})` : "";
    const where = this.server;
    if (response.status === 401 && this.#tokenSource === "env") {
      return new ApiError(
        `The server at ${where} refused OPS_TOKEN: ${detail}${code}. Set a valid token, or ` +
          "unset OPS_TOKEN and run `ops login`",
        full,
      );
    }
    if (response.status === 401 && this.#tokenSource === "stored") {
      return new ApiError(
        `Your login to ${where} has expired or was revoked${code}: run ` +
          `\`ops login --server ${where} --email ${this.#email ?? "E"}\``,
        full,
      );
    }
    if (response.status === 429) {
      return new ApiError(
        `Rate limited by ${where}: retry in ${retryAfterText(response.headers.get("Retry-After"))}`,
        full,
      );
    }
    if (response.status === 503) {
      return new ApiError(
        `The server at ${where} is unavailable (${detail}): retry in ` +
          retryAfterText(response.headers.get("Retry-After")),
        full,
      );
    }
    const issues = problem.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
    return new ApiError(`${detail}${issues ? ` (${issues})` : ""}${code}`, full);
  }
}
