/**
 * Content negotiation by `Accept` (RFC 9110 §12.5.1), once for every route that answers in
 * several media types (the printed forms in server/printable.ts, the shelf labels): the most
 * specific matching range gives each offered type its quality, the highest quality wins, ties
 * go to the earlier offered type, and no header, a wildcard or nothing acceptable gives the
 * first offered type (never a 406).
 */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(",").flatMap((part) => {
    const [range, ...params] = part.trim().split(";");
    const [type, subtype] = (range ?? "").trim().toLowerCase().split("/");
    if (!type || !subtype) return [];
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key?.trim().toLowerCase() === "q") {
        const n = Number(value?.trim());
        q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    return [{ type, subtype, q }];
  });
}

/** How much `ranges` want `mediaType` (the most specific matching range decides; 0: not at all). */
function qualityOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.split("/");
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype
      ? 2
      : r.type === type && r.subtype === "*"
      ? 1
      : r.type === "*" && r.subtype === "*"
      ? 0
      : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/** The offered media type `accept` prefers (`offered` in tie-break order, the first the default). */
export function preferredMediaType<T extends string>(
  accept: string | undefined | null,
  offered: readonly [T, ...T[]],
): T {
  const ranges = parseAccept(accept ?? "");
  let chosen = offered[0];
  let bestQ = 0;
  for (const mediaType of offered) {
    const q = qualityOf(ranges, mediaType);
    if (q > bestQ) {
      chosen = mediaType;
      bestQ = q;
    }
  }
  return chosen;
}
