import { BoundedCache } from "../../lib/process/bounded-cache";

/**
 * BoundedCache evicting as it did before 2026-11-27: the oldest key asked of a new iterator at every
 * eviction (which walks every hole deletions left at the front of the Map). The reference the cache's
 * evictions are tested against (test/unit/bounded-cache.test.ts) and the baseline bench/bounded-cache.ts
 * measures it against; everything else is the cache's own.
 */
export class FreshIteratorCache<K, V> extends BoundedCache<K, V> {
  protected override evictOldest(): void {
    this.entries.delete(this.entries.keys().next().value!);
  }
}
