/** Password and PIN rules of API §2: pure, shared by the schemas, the use cases and the CLI. */

export const PASSWORD_MIN_BYTES = 8;
/** bcrypt only reads the first 72 bytes: a longer password would be silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

/** Why `password` is not acceptable, or undefined when it is (8 to 72 bytes of UTF-8). */
export function passwordProblem(password: string): string | undefined {
  const bytes = new TextEncoder().encode(password).length;
  if (bytes < PASSWORD_MIN_BYTES) {
    return `The password must be at least ${PASSWORD_MIN_BYTES} bytes long`;
  }
  if (bytes > PASSWORD_MAX_BYTES) {
    return `The password must be at most ${PASSWORD_MAX_BYTES} bytes long (UTF-8)`;
  }
  return undefined;
}
