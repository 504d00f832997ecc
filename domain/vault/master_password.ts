/**
 * Master password rules (API §12): at least 12 characters (Unicode code points, so "é" is
 * one), at most 1,024 (the KDF reads every byte; a longer one is a mistake, not a password).
 */

export const MASTER_PASSWORD_MIN_CHARS = 12;
export const MASTER_PASSWORD_MAX_CHARS = 1024;

export function masterPasswordLength(password: string): number {
  let n = 0;
  for (const _ of password) n++;
  return n;
}

/** Why `password` cannot be a new master password, or undefined when it can. */
export function masterPasswordProblem(password: string): string | undefined {
  const length = masterPasswordLength(password);
  if (length < MASTER_PASSWORD_MIN_CHARS) {
    return `The master password needs at least ${MASTER_PASSWORD_MIN_CHARS} characters`;
  }
  if (length > MASTER_PASSWORD_MAX_CHARS) {
    return `The master password may have at most ${MASTER_PASSWORD_MAX_CHARS} characters`;
  }
  return undefined;
}
