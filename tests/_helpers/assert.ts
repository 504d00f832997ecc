/**
 * std-style assertions over `node:assert/strict` (JSR, and so `@std/assert`, is not
 * reachable from our machines).
 */
import nodeAssert from "node:assert/strict";

export function assert(condition: unknown, message?: string): asserts condition {
  nodeAssert.ok(condition, message);
}

export function assertEquals<T>(
  actual: unknown,
  expected: T,
  message?: string,
): asserts actual is T {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  nodeAssert.match(actual, pattern, message);
}

export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  nodeAssert.ok(
    actual.includes(expected),
    message ?? `Expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
  );
}

export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  errorClass?: new (...args: never[]) => E,
  messageIncludes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    if (errorClass && !(error instanceof errorClass)) {
      throw new Error(`Expected ${errorClass.name}, got ${String(error)}`);
    }
    if (messageIncludes && !(error as Error).message.includes(messageIncludes)) {
      throw new Error(
        `Expected message to include "${messageIncludes}": ${(error as Error).message}`,
      );
    }
    return error as E;
  }
  throw new Error("Expected the function to reject");
}

export function assertThrows(
  fn: () => unknown,
  errorClass?: new (...args: never[]) => Error,
): Error {
  try {
    fn();
  } catch (error) {
    if (errorClass && !(error instanceof errorClass)) {
      throw new Error(`Expected ${errorClass.name}, got ${String(error)}`);
    }
    return error as Error;
  }
  throw new Error("Expected the function to throw");
}
