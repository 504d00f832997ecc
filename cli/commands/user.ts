/**
 * `ops user create --email E --first F --last L [--role SLUG...] [--password-stdin]` and
 * `ops user reset-link --email E`: on the database directly, through the same use cases as
 * `POST /users` and `POST /auth/reset-password/:userId` (audited as the system actor).
 */
import type { Command } from "commander";
import { z } from "zod";
import { createUserBody } from "../../app/auth/auth_schemas.ts";
import { findUserIdByEmail } from "../../app/auth/users_repo.ts";
import type { ResetLink, User } from "../../app/auth/auth_schemas.ts";
import { createAdminResetLink } from "../../app/auth/password_reset.ts";
import { createStaffUser } from "../../app/auth/users.ts";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import type { AppDeps } from "../../app/deps.ts";
import { NotFoundError, ValidationError } from "../../domain/errors.ts";
import { printJson } from "../_output.ts";
import { withRuntime } from "../_runtime.ts";
import { readStdinSecret } from "../_secrets.ts";

export interface CreateUserOptions {
  email: string;
  first: string;
  last: string;
  role?: string[];
  password?: string;
}

const WHEN_LOCKED = "create the user through the running server (POST /v1/users)";

function parseInput(options: CreateUserOptions) {
  const parsed = createUserBody.safeParse({
    email: options.email,
    firstName: options.first,
    lastName: options.last,
    ...(options.password !== undefined ? { password: options.password } : {}),
  });
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  return parsed.data;
}

/** The use case behind `ops user create` (exported for tests and other drivers). */
export async function createUserCommand(
  deps: AppDeps,
  options: CreateUserOptions,
): Promise<{ user: User; resetLink?: ResetLink }> {
  const input = parseInput(options);
  const roleSlugs = z.array(z.string().min(1)).parse(options.role ?? []);
  return await createStaffUser(deps, SYSTEM_ACTOR, { ...input, roleSlugs });
}

export async function resetLinkCommand(deps: AppDeps, email: string): Promise<ResetLink> {
  const id = await findUserIdByEmail(deps.db, email.trim());
  if (!id) throw new NotFoundError("not_found", `No user has the email "${email}"`);
  return await createAdminResetLink(deps, SYSTEM_ACTOR, id);
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerUserCommands(program: Command): void {
  const user = program.command("user").description("Create staff users and reset links");

  user.command("create")
    .description("Create a staff user (without --password-stdin a 1-hour reset link is printed)")
    .requiredOption("--email <email>", "email address (unique)")
    .requiredOption("--first <name>", "first name")
    .requiredOption("--last <name>", "last name")
    .option("--role <slug>", "role slug to assign (repeatable), e.g. admin", collect)
    .option("--password-stdin", "read the password from stdin")
    .option("--json", "print the user (and reset link) as JSON")
    .action(
      async (
        options: Omit<CreateUserOptions, "password"> & { passwordStdin?: boolean; json?: boolean },
      ) => {
        const password = options.passwordStdin ? await readStdinSecret() : undefined;
        const result = await withRuntime(
          { whenLocked: WHEN_LOCKED },
          (deps) => createUserCommand(deps, { ...options, password }),
        );
        if (options.json) return printJson(result);
        const roles = result.user.roles.map((r) => r.slug).join(", ") || "none";
        console.log(
          `Created ${result.user.email} (employee ${result.user.employeeNumber}, roles: ${roles}).`,
        );
        if (result.resetLink) {
          console.log(`Password link (valid until ${result.resetLink.expiresAt}):`);
          console.log(result.resetLink.url);
        }
      },
    );

  user.command("reset-link")
    .description("Print a password reset link for a user (valid 1 hour, works once)")
    .requiredOption("--email <email>", "the user's email")
    .option("--json", "print as JSON")
    .action(async (options: { email: string; json?: boolean }) => {
      const link = await withRuntime(
        { whenLocked: "use POST /v1/auth/reset-password/:userId on the running server" },
        (deps) => resetLinkCommand(deps, options.email),
      );
      if (options.json) return printJson(link);
      console.log(`Valid until ${link.expiresAt}:`);
      console.log(link.url);
    });
}
