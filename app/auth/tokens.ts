/**
 * Access tokens: JWT signed with HS256 only (any other `alg`, `none` included, is refused).
 * Claims: sub, iat, exp, jti, typ (`access` | `pos`), ver (the user's token version).
 */
import { jwtVerify, SignJWT } from "jose";
import { UnauthenticatedError } from "../../domain/errors.ts";

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

export function createTokenSigner(secret: Uint8Array): TokenSigner {
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
        .setJti(crypto.randomUUID())
        .sign(secret);
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, secret, {
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
        return {
          userId: payload.sub!,
          type,
          version,
          posVersion: type === "pos" ? posVersion as number : undefined,
          tokenId: payload.jti!,
        };
      } catch {
        throw new UnauthenticatedError("unauthenticated", "The access token is invalid or expired");
      }
    },
  };
}

/** The signing secret: `JWT_SECRET`, or a random per-process one in development. */
export function signingSecret(configured: string | undefined): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  return crypto.getRandomValues(new Uint8Array(32));
}
