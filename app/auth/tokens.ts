/**
 * Access tokens: JWT signed with HS256 only (any other `alg`, `none` included, is refused).
 * Claims: sub, iat, exp, jti, typ (`access` | `pos`), ver (the user's token version).
 */
import { jwtVerify, SignJWT } from "jose";
import { UnauthenticatedError } from "../../domain/errors.ts";
import type { Ids } from "../ids.ts";

export type TokenType = "access" | "pos";

export interface TokenClaims {
  userId: string;
  type: TokenType;
  version: number;
  /** `pos` tokens only: the user's PIN version when issued (setting/removing a PIN revokes). */
  posVersion?: number;
  tokenId: string;
}

export interface TokenSigner {
  sign(claims: Omit<TokenClaims, "tokenId">, ttlSeconds: number, now: Date): Promise<string>;
  verify(token: string, now: Date): Promise<TokenClaims>;
}

/** Verified tokens remembered per process (cleared when full). */
const VERIFIED_CACHE_MAX = 10_000;

interface VerifiedToken {
  claims: TokenClaims;
  /** Expiry and not-before (epoch seconds), re-checked on every use. */
  exp: number;
  nbf: number | undefined;
}

/**
 * Signs and verifies HS256 tokens. The HMAC key is imported once (jose would import a raw
 * secret on every call), and a token that verified is remembered by its exact text, so the
 * next request with it costs a map lookup plus the time checks (exp, nbf) against `now`:
 * the signature covers the whole text, so the same text carries the same claims. Invalid
 * tokens are never remembered. Revocation is not decided here (token and PIN versions are
 * checked against the user on every request, see actor.ts). Token ids (`jti`) come from `ids`.
 */
export function createTokenSigner(secret: Uint8Array, ids: Ids): TokenSigner {
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () =>
    key ??= crypto.subtle.importKey(
      "raw",
      secret as BufferSource,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
  const verified = new Map<string, VerifiedToken>();
  const invalid = () =>
    new UnauthenticatedError("unauthenticated", "The access token is invalid or expired");
  return {
    sign(claims, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000);
      const payload: Record<string, unknown> = { typ: claims.type, ver: claims.version };
      if (claims.type === "pos") payload["pver"] = claims.posVersion ?? 0;
      return new SignJWT(payload)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.userId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .setJti(ids.uuid())
        .sign(secret);
    },
    async verify(token, now) {
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const known = verified.get(token);
      if (known) {
        // The same checks jose makes (no clock tolerance): exp <= now or nbf > now → refused.
        if (known.exp <= nowSeconds || (known.nbf !== undefined && known.nbf > nowSeconds)) {
          throw invalid();
        }
        return { ...known.claims };
      }
      try {
        const { payload } = await jwtVerify(token, await hmacKey(), {
          algorithms: ["HS256"],
          currentDate: now,
          requiredClaims: ["sub", "iat", "exp", "jti"],
        });
        const type = payload["typ"];
        const version = payload["ver"];
        const posVersion = payload["pver"];
        if ((type !== "access" && type !== "pos") || typeof version !== "number") {
          throw new Error("bad claims");
        }
        if (type === "pos" && typeof posVersion !== "number") throw new Error("bad claims");
        const claims: TokenClaims = {
          userId: payload.sub!,
          type,
          version,
          posVersion: type === "pos" ? posVersion as number : undefined,
          tokenId: payload.jti!,
        };
        if (verified.size >= VERIFIED_CACHE_MAX) verified.clear();
        verified.set(token, { claims, exp: payload.exp!, nbf: payload.nbf });
        return { ...claims };
      } catch {
        throw invalid();
      }
    },
  };
}

/** The signing secret: `JWT_SECRET`, or a random per-process one in development. */
export function signingSecret(configured: string | undefined): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  return crypto.getRandomValues(new Uint8Array(32));
}
