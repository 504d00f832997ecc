/** Reset tokens: 32 random bytes (base64url) handed out once; only their SHA-256 is stored. */

export function newResetToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function hashResetToken(token: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}
