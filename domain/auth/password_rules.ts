/** Password and PIN rules of API §2: pure, shared by the schemas, the use cases and the CLI. */

export const PASSWORD_MIN_BYTES = 8;
/** bcrypt only reads the first 72 bytes: a longer password would be silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

/** Why `password` is not acceptable, or undefined when it is (8 to 72 bytes of UTF-8). */
export function passwordProblem(password: string): string | undefined {
  const bytes = new TextEncoder().encode(password).length;
  // Said in characters, as people count (fewer bytes than 8 are fewer than 8 characters); the
  // limit on top is in bytes, which an accented letter or a symbol takes two to four of.
  if (bytes < PASSWORD_MIN_BYTES) {
    return `The password needs at least ${PASSWORD_MIN_BYTES} characters`;
  }
  if (bytes > PASSWORD_MAX_BYTES) {
    return `The password may have at most ${PASSWORD_MAX_BYTES} characters (fewer when some ` +
      "are accented letters or symbols, which count as two to four)";
  }
  return undefined;
}
