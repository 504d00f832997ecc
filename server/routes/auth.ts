/** Authentication and the caller's own account (API §2). */
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../../app/deps.ts";
import {
  changePasswordBody,
  forgotPasswordAccepted,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  myPermissionsResponse,
  pinLoginBody,
  pinLoginResponse,
  registerBody,
  resetLinkSchema,
  resetPasswordBody,
  setPinBody,
  updateMeBody,
  userEnvelope,
  userIdParams,
  userSchema,
} from "../../app/auth/auth_schemas.ts";
import {
  getMe,
  login,
  myPermissions,
  pinLogin,
  registerUser,
  removePin,
  setPin,
  updateMe,
} from "../../app/auth/login.ts";
import {
  changePassword,
  createAdminResetLink,
  FORGOT_PASSWORD_MIN_MS,
  requestPasswordReset,
  resetPassword,
} from "../../app/auth/password_reset.ts";
import { createAuthRateLimiter } from "../../app/auth/rate_limit.ts";
import type { AppEnv } from "../context.ts";
import { clientIp } from "../middleware/client_ip.ts";
import { ApiRouter } from "../route.ts";

/** The routes sharing the per-IP limit (API §2), counted before any validation. */
const RATE_LIMITED_PATHS = [
  "/register",
  "/login",
  "/forgot-password",
  "/reset-password",
  "/pin-login",
];

function authRateLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limiter = createAuthRateLimiter(deps);
  return async (c, next) => {
    if (c.req.method === "POST") await limiter.limit(clientIp(c, deps.config.trustProxy));
    await next();
  };
}

/**
 * Headers of every response that carries a credential (an access token, a reset link): no
 * cache (browser, proxy) may keep it.
 */
export const NO_STORE_HEADERS = { "Cache-Control": "no-store" };

const NO_STORE_NOTE =
  " Answered with `Cache-Control: no-store` (the response carries a credential).";

const RATE_LIMIT_NOTE =
  " Rate limited per client IP together with the other unauthenticated auth routes " +
  "(`AUTH_RATE_LIMIT`, default 10 per 15 minutes) → 429 `rate_limited` with `Retry-After`.";

export function authRoutes(deps: AppDeps): ApiRouter {
  const router = new ApiRouter(deps, "/auth", "Auth");
  const limiter = authRateLimit(deps);
  for (const path of RATE_LIMITED_PATHS) router.hono.use(path, limiter);

  return router
    .route({
      method: "post",
      path: "/register",
      summary: "Register a user account",
      description: "The first user ever registered gets the Admin role; later ones get no role. " +
        "While no user exists registration is always open (bootstrap); afterwards only while " +
        "config `registrationOpen` is true (default false), else 403 `registration_closed`. " +
        "`X-Company-ID` is accepted and ignored; an email already in use → 409 `duplicate`." +
        RATE_LIMIT_NOTE,
      access: "public",
      body: registerBody,
      responses: { 201: { description: "The new user", schema: userEnvelope } },
      errors: {
        403: ["registration_closed"],
        409: ["duplicate", "employee_numbers_exhausted"],
        429: ["rate_limited"],
      },
    }, async (c, { body }) => c.json({ user: await registerUser(deps, body) }, 201))
    .route(
      {
        method: "post",
        path: "/login",
        summary: "Log in with email and password",
        description: "Email match is case-insensitive. A wrong email or password → 401 " +
          "`invalid_credentials` (same answer, similar timing); a disabled user → 401 `user_disabled`." +
          NO_STORE_NOTE + RATE_LIMIT_NOTE,
        access: "public",
        body: loginBody,
        responses: {
          200: {
            description: "An access token",
            schema: loginResponse,
            headers: ["Cache-Control"],
          },
        },
        errors: { 401: ["invalid_credentials", "user_disabled"], 429: ["rate_limited"] },
      },
      async (c, { body }) =>
        c.json(
          await login(deps, body, { ip: clientIp(c, deps.config.trustProxy) }),
          200,
          NO_STORE_HEADERS,
        ),
    )
    .route({
      method: "get",
      path: "/me",
      summary: "The caller's user",
      access: "authenticated",
      responses: { 200: { description: "The user", schema: userSchema } },
    }, async (c, { actor }) => c.json(await getMe(deps, actor)))
    .route({
      method: "patch",
      path: "/me",
      summary: "Update the caller's name",
      access: "authenticated",
      body: updateMeBody,
      responses: { 200: { description: "The updated user", schema: userSchema } },
    }, async (c, { body, actor }) => c.json(await updateMe(deps, actor, body)))
    .route({
      method: "post",
      path: "/change-password",
      summary: "Change the caller's password",
      description: "Revokes every token of the user, this one included (log in again). " +
        "A wrong current password → 400 `invalid_current_password`. Needs a full login.",
      access: "authenticated",
      fullLogin: true,
      body: changePasswordBody,
      responses: { 204: { description: "Changed" } },
      errors: { 400: ["invalid_current_password"] },
    }, async (c, { body, actor }) => {
      await changePassword(deps, actor, body);
      return c.body(null, 204);
    })
    .route({
      method: "post",
      path: "/forgot-password",
      summary: "Ask for a password reset email",
      description: "Always 202 `{}`, whether or not the email belongs to a user, and in the " +
        `same time either way (every answer waits at least ${FORGOT_PASSWORD_MIN_MS} ms). Sends a single-use token ` +
        "valid 4 hours; at most 3 emails per hour per address (further requests answer 202 and " +
        "send nothing)." + RATE_LIMIT_NOTE,
      access: "public",
      body: forgotPasswordBody,
      responses: { 202: { description: "Accepted", schema: forgotPasswordAccepted } },
      errors: { 429: ["rate_limited"] },
    }, async (c, { body }) => {
      await requestPasswordReset(deps, body.email);
      return c.json({}, 202);
    })
    .route({
      method: "post",
      path: "/reset-password",
      summary: "Set a new password with a reset token",
      description: "The token (from the email or an admin link) works once; unknown, used or " +
        "expired → 400 `invalid_token`. Revokes every token of the user." + RATE_LIMIT_NOTE,
      access: "public",
      body: resetPasswordBody,
      responses: { 204: { description: "Password changed" } },
      errors: { 400: ["invalid_token"], 429: ["rate_limited"] },
    }, async (c, { body }) => {
      await resetPassword(deps, body);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/reset-password/:userId",
        summary: "Create a password reset link for a user",
        description: "A link valid 1 hour whose `token` query parameter works once with " +
          "`POST /auth/reset-password`. Needs a full login, and every permission the user " +
          "holds (no taking over a more powerful account): else 403 `forbidden`, audited as " +
          "`user.reset_link_denied`." + NO_STORE_NOTE,
        access: "users.admin",
        fullLogin: true,
        params: userIdParams,
        responses: {
          201: { description: "The link", schema: resetLinkSchema, headers: ["Cache-Control"] },
        },
      },
      async (c, { params, actor }) =>
        c.json(await createAdminResetLink(deps, actor, params.userId), 201, NO_STORE_HEADERS),
    )
    .route({
      method: "post",
      path: "/set-pin",
      summary: "Set the caller's 4-digit PIN",
      description: "Revokes the caller's older POS (PIN-login) tokens. Needs a full login.",
      access: "authenticated",
      fullLogin: true,
      body: setPinBody,
      responses: { 204: { description: "PIN set" } },
    }, async (c, { body, actor }) => {
      await setPin(deps, actor, body.pin);
      return c.body(null, 204);
    })
    .route({
      method: "delete",
      path: "/pin",
      summary: "Remove the caller's PIN",
      description: "Revokes the caller's POS tokens. Needs a full login.",
      access: "authenticated",
      fullLogin: true,
      responses: { 204: { description: "PIN removed" } },
    }, async (c, { actor }) => {
      await removePin(deps, actor);
      return c.body(null, 204);
    })
    .route(
      {
        method: "post",
        path: "/pin-login",
        summary: "Log in at the point of sale with employee number + PIN",
        description: "`code` is the 4-digit employee number followed by the 4-digit PIN. Returns " +
          "a `pos` token (refused with 403 `full_login_required` on user, role, vault, module, " +
          "config writes and PIN/password changes). Wrong code → 401 `invalid_credentials`; after " +
          "5 wrong PINs for one employee number PIN login for it is refused for 15 minutes (429 " +
          "`rate_limited` with `Retry-After`, even with the right PIN). The count belongs to the " +
          "user holding the number and stays with them when they are renumbered; manager " +
          "override codes count on it too." + NO_STORE_NOTE +
          RATE_LIMIT_NOTE,
        access: "public",
        body: pinLoginBody,
        responses: {
          200: { description: "A POS token", schema: pinLoginResponse, headers: ["Cache-Control"] },
        },
        errors: { 401: ["invalid_credentials", "user_disabled"], 429: ["rate_limited"] },
      },
      async (c, { body }) =>
        c.json(
          await pinLogin(deps, body.code, { ip: clientIp(c, deps.config.trustProxy) }),
          200,
          NO_STORE_HEADERS,
        ),
    );
}

export function meRoutes(deps: AppDeps): ApiRouter {
  return new ApiRouter(deps, "/me", "Auth").route({
    method: "get",
    path: "/permissions",
    summary: "The caller's effective permissions and roles",
    description: "Permissions are the union over the caller's current roles, inheritance expanded.",
    access: "authenticated",
    responses: { 200: { description: "Permissions and roles", schema: myPermissionsResponse } },
  }, async (c, { actor }) => c.json(await myPermissions(deps, actor)));
}
