/**
 * `ops user create --email E --first F --last L [--role ROLE...] [--password-stdin]` and
 * `ops user reset-link --email E`: on the database (as the system actor, audited), or through
 * the server that holds it (`POST /users`, `POST /auth/reset-password/:userId`) with your
 * login. With no login yet, `ops user create` registers the shop's very first user through
 * `POST /auth/register` (who becomes Admin), so a fresh server needs no token to get started.
 * A role is named by its slug, its name or its id, as `ops` and the API show them.
 */
import type { Command } from "commander";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import { createUserBody, type ResetLink, type User } from "../../app/auth/auth_schemas.ts";
import { createAdminResetLink } from "../../app/auth/password_reset.ts";
import { listAllRoles } from "../../app/auth/roles_repo.ts";
import { createStaffUser } from "../../app/auth/users.ts";
import { findUserIdByEmail } from "../../app/auth/users_repo.ts";
import type { AppDeps } from "../../app/deps.ts";
import { findStoreTimezone } from "../../app/platform/store_repo.ts";
import { passwordProblem } from "../../domain/auth/password_rules.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { type ApiClient, ApiError } from "../_api.ts";
import { CliError, UsageError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { parseInput } from "../_input.ts";
import {
  type Column,
  outputFormat,
  printJson,
  printNote,
  printRows,
  printText,
  storeTime,
  withFormatOptions,
} from "../_output.ts";
import { promptNewSecret, readStdinSecret } from "../_secrets.ts";
import { run, storeTimezoneVia } from "../_transport.ts";

interface RoleRef {
  id: string;
  slug: string;
  name: string;
}

/** The ids of the roles named (slug, name or id, any case); unknown → exit 2 listing them all. */
export function resolveRoles(wanted: readonly string[], roles: readonly RoleRef[]): string[] {
  return wanted.map((w) => {
    const key = w.trim().toLowerCase();
    const role = roles.find((r) =>
      r.slug === key || r.name.toLowerCase() === key || r.id.toLowerCase() === key
    );
    if (!role) {
      const valid = roles.map((r) =>
        r.slug === r.name.toLowerCase() ? r.slug : `${r.slug} (${r.name})`
      );
      throw new UsageError(`Unknown role "${w}": the roles are ${valid.join(", ")}`);
    }
    return role.id;
  });
}

export interface CreateUserInput {
  email: string;
  first: string;
  last: string;
  role?: string[];
  password?: string;
}

type Created = { user: User; resetLink?: ResetLink };

function body(input: CreateUserInput) {
  return parseInput(createUserBody, {
    email: input.email,
    firstName: input.first,
    lastName: input.last,
    ...(input.password !== undefined ? { password: input.password } : {}),
  }, { firstName: "--first", lastName: "--last", password: "--password-stdin" });
}

/** `ops user create` on the database (exported for tests). */
export async function createUserDirect(deps: AppDeps, input: CreateUserInput): Promise<Created> {
  const roleIds = resolveRoles(input.role ?? [], await listAllRoles(deps.db));
  return await createStaffUser(deps, SYSTEM_ACTOR, { ...body(input), roleIds });
}

async function createUserVia(api: ApiClient, input: CreateUserInput): Promise<Created> {
  const roles = input.role?.length
    ? (await api.request<{ data: RoleRef[] }>("GET", "/roles/all")).data
    : [];
  const roleIds = resolveRoles(input.role ?? [], roles);
  return await api.request<Created>("POST", "/users", { body: { ...body(input), roleIds } });
}

/** No login yet: the first user of a fresh shop registers (and becomes Admin). */
async function registerFirstUser(api: ApiClient, input: CreateUserInput): Promise<Created> {
  const notLoggedIn = `Not logged in to ${api.server}: run \`ops login --server ${api.server} ` +
    "--email E\` as an admin (or set OPS_TOKEN)";
  let password = input.password;
  if (password === undefined) {
    if (!Deno.stdin.isTerminal()) {
      throw new CliError(`${notLoggedIn}; to create the very first user, give --password-stdin`);
    }
    password = await promptNewSecret(
      `Password for ${input.email} (8 to 72 characters): `,
      passwordProblem,
      () => new UsageError("The passwords differ"),
    );
  }
  const fields = body({ ...input, password });
  let created: { user: User };
  try {
    created = await api.request("POST", "/auth/register", { body: fields });
  } catch (error) {
    if (error instanceof ApiError && error.code === "registration_closed") {
      throw new CliError(`${notLoggedIn} (the shop has users, so it cannot register the first)`);
    }
    throw error;
  }
  const slugs = new Set(created.user.roles.map((r) => r.slug));
  const missing = (input.role ?? []).filter((r) => !slugs.has(r.trim().toLowerCase()));
  if (missing.length > 0) {
    throw new CliError(
      `Registered ${created.user.email} (open registration) without the role(s) ` +
        `${
          missing.join(", ")
        }: an admin assigns them (\`ops login\` as one, then POST /v1/users/:id/roles)`,
    );
  }
  const first = slugs.has("admin") ? "the shop's first user (Admin)" : "registered";
  printNote(
    `${created.user.email} is ${first}. Next: \`ops login --server ${api.server} ` +
      `--email ${created.user.email}\``,
  );
  return created;
}

export async function resetLinkDirect(deps: AppDeps, email: string): Promise<ResetLink> {
  const id = await findUserIdByEmail(deps.db, email.trim());
  if (!id) throw new NotFoundError("not_found", `No user has the email "${email}"`);
  return await createAdminResetLink(deps, SYSTEM_ACTOR, id);
}

async function resetLinkVia(api: ApiClient, email: string): Promise<ResetLink> {
  const wanted = email.trim().toLowerCase();
  const page = await api.request<{ data: User[] }>("GET", "/users", {
    query: { q: wanted, limit: 100 },
  });
  const user = page.data.find((u) => u.email.toLowerCase() === wanted);
  if (!user) throw new NotFoundError("not_found", `No user has the email "${email}"`);
  return await api.request<ResetLink>("POST", `/auth/reset-password/${user.id}`);
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function linkText(link: ResetLink, timeZone: string): string {
  const until = storeTime(link.expiresAt, timeZone);
  return `Password link (works once, valid until ${until}):\n${link.url}`;
}

const USER_COLUMNS: Column<Created>[] = [
  { header: "email", value: (c) => c.user.email },
  { header: "firstName", value: (c) => c.user.firstName },
  { header: "lastName", value: (c) => c.user.lastName },
  { header: "employeeNumber", value: (c) => c.user.employeeNumber },
  { header: "roles", value: (c) => c.user.roles.map((r) => r.slug).join(" ") },
  { header: "resetUrl", value: (c) => c.resetLink?.url },
  { header: "resetExpiresAt", value: (c) => c.resetLink?.expiresAt },
];

export function registerUserCommands(program: Command): void {
  const user = program.command("user").description("Create staff users and password links");

  const create = withFormatOptions(
    user.command("create")
      .description(
        "Create a staff user (without --password-stdin a 1-hour password link is printed)",
      )
      .requiredOption("--email <email>", "email address (unique)")
      .requiredOption("--first <name>", "first name")
      .requiredOption("--last <name>", "last name")
      .option("--role <role>", "role to assign by slug or name (repeatable), e.g. admin", collect)
      .option("--password-stdin", "read the password from stdin"),
  ).action(
    async (
      options: Omit<CreateUserInput, "password"> & {
        passwordStdin?: boolean;
        json?: boolean;
        format?: string;
      },
    ) => {
      const format = outputFormat(options);
      body(options); // usage errors before any password is read or database opened
      const input = {
        ...options,
        password: options.passwordStdin ? await readStdinSecret() : undefined,
      };
      const { created, timeZone } = await run({
        direct: async (deps) => ({
          created: await createUserDirect(deps, input),
          timeZone: await findStoreTimezone(deps.db),
        }),
        server: async (api) => ({
          created: await createUserVia(api, input),
          timeZone: await storeTimezoneVia(api),
        }),
        anonymous: async (api) => ({
          created: await registerFirstUser(api, input),
          timeZone: "UTC",
        }),
      });
      if (format === "json") return printJson(created);
      if (format === "csv") return printRows([created], USER_COLUMNS, format);
      const roles = created.user.roles.map((r) => r.name).join(", ") || "none";
      printText(
        `Created ${created.user.email} (${created.user.firstName} ${created.user.lastName}), ` +
          `employee ${created.user.employeeNumber}, roles: ${roles}.`,
      );
      if (created.resetLink) printText(linkText(created.resetLink, timeZone));
    },
  );
  describe(create, {
    examples: [
      "deno task ops user create --email ada@shop.test --first Ada --last Lovelace --role admin",
      'echo "$PASSWORD" | deno task ops user create --email bo@shop.test --first Bo --last Ek ' +
      '--role "Sales Associate" --password-stdin',
    ],
    env: BUSINESS_ENV,
  });

  const resetLink = withFormatOptions(
    user.command("reset-link")
      .description("Print a password link for a user (valid 1 hour, works once)")
      .requiredOption("--email <email>", "the user's email"),
  ).action(async (options: { email: string; json?: boolean; format?: string }) => {
    const format = outputFormat(options);
    const { link, timeZone } = await run({
      direct: async (deps) => ({
        link: await resetLinkDirect(deps, options.email),
        timeZone: await findStoreTimezone(deps.db),
      }),
      server: async (api) => ({
        link: await resetLinkVia(api, options.email),
        timeZone: await storeTimezoneVia(api),
      }),
    });
    if (format === "json") return printJson(link);
    if (format === "csv") {
      return printRows([link], [
        { header: "email", value: () => options.email },
        { header: "url", value: (l) => l.url },
        { header: "expiresAt", value: (l) => l.expiresAt },
      ], format);
    }
    printText(linkText(link, timeZone));
  });
  describe(resetLink, {
    examples: ["deno task ops user reset-link --email bo@shop.test"],
    env: BUSINESS_ENV,
  });
}
