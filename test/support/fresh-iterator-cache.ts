/**
 * BoundedCache's rule written plainly, as it was before 2026-11-27: the oldest insertion is evicted
 * (asked of a new iterator each time), and a use in the older half inserts the entry again. The
 * reference the cache is tested against (test/unit/bounded-cache.test.ts) and the baseline
 * bench/bounded-cache.ts measures it against.
 */
export class FreshIteratorCache<K, V> {
  readonly entries = new Map<K, { value: V; stamp: number }>();
  private stamp = 0;

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.stamp - entry.stamp > this.capacity / 2) this.set(key, entry.value);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, stamp: ++this.stamp });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
