/**
 * A per-process cache of values that a change made through another process may invalidate
 * (the actors, the store's time zone), kept in step by the cluster (app/platform/cluster.ts):
 * - an entry is at most `ttlMs` old, counted from when its load started;
 * - a load that started before an invalidation is never stored (generation check), and misses
 *   of one key share a load only if it began after the last invalidation;
 * - while `trusted()` is false (or `ttlMs` ≤ 0) every call loads for itself, so it never joins
 *   a load that read the state before a change it must see.
 */

export interface TrustedCache<K, V> {
  get(key: K): Promise<V>;
  /** Drops every entry and forgets loads under way. */
  invalidate(): void;
  readonly size: number;
}

export function createTrustedCache<K, V>(
  load: (key: K) => Promise<V>,
  options: { ttlMs: number; trusted?: () => boolean; maxEntries?: number },
): TrustedCache<K, V> {
  const { ttlMs } = options;
  const trusted = options.trusted ?? (() => true);
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const entries = new Map<K, { value: V; loadedAt: number }>();
  const loading = new Map<K, Promise<V>>();
  let generation = 0;
  return {
    async get(key) {
      if (ttlMs <= 0 || !trusted()) return await load(key);
      const cached = entries.get(key);
      if (cached && performance.now() - cached.loadedAt < ttlMs) return cached.value;
      const pending = loading.get(key);
      if (pending) return await pending;
      const startedGeneration = generation;
      const startedAt = performance.now();
      const promise = load(key).finally(() => loading.delete(key));
      loading.set(key, promise);
      const value = await promise;
      if (startedGeneration === generation) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, { value, loadedAt: startedAt });
      }
      return value;
    },
    invalidate() {
      generation++;
      entries.clear();
      loading.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
