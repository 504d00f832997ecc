/** Time-ordered UUIDv7 ids (RFC 9562) and the injectable id/clock sources of `AppDeps`. */

export interface Ids {
  uuid(): string;
}

export interface Clock {
  now(): Date;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A UUIDv7 for the millisecond `nowMs`: with `sequence` (12 bits) in `rand_a` when given
 * (see {@link clockIds}), random bits there otherwise.
 */
export function uuidv7(nowMs = Date.now(), sequence?: number): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = nowMs;
  if (sequence !== undefined) {
    bytes[6] = sequence >> 8;
    bytes[7] = sequence & 0xff;
  }
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  // Built by concatenation: it runs for every request (X-Request-Id), arrays cost more.
  let out = "";
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += "-";
    out += HEX[bytes[i]!]!;
  }
  return out;
}

/**
 * Ids from the clock, monotonic for this source (RFC 9562 §6.2, method 1): a 12-bit sequence
 * counts the ids of one millisecond, and a clock that steps back is held at the last one. Rows
 * stamped with millisecond times, such as audit entries ordered by (at, id), then list in the
 * order they were made: a vault reveal and the integrity failure it led to, written in one
 * millisecond, sorted either way with random bits there.
 */
export function clockIds(now: () => number = Date.now): Ids {
  let lastMs = -1;
  let sequence = 0;
  return {
    uuid() {
      let ms = now();
      if (ms > lastMs) {
        sequence = 0;
      } else if (++sequence > 0xfff) {
        ms = lastMs + 1;
        sequence = 0;
      } else {
        ms = lastMs;
      }
      lastMs = ms;
      return uuidv7(ms, sequence);
    },
  };
}

export const systemIds: Ids = clockIds();
export const systemClock: Clock = { now: () => new Date() };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
