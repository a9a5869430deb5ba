import { loggable } from "./loggable-error";

/**
 * A least-recently-used map (nearly: see get) with a size limit: every cache an instance keeps (the
 * context engine's, the token memory's, the kept database statements) is one of these, so none grows
 * without bound however many users, projects, words, lines or statements pass through an instance.
 */
export class BoundedCache<K, V> {
  protected readonly entries = new Map<K, { value: V; stamp: number }>();
  private stamp = 0;
  /**
   * Where the oldest entry is: an iterator over the keys, kept from one eviction to the next. Map keeps
   * a deleted entry's place as a hole until it rebuilds its table, and a new iterator starts at the first
   * place: asking one for the oldest key at every eviction walked every hole the deletions had left in
   * front (30 µs an insertion in a full cache of 20,000). Everything before this one's place has been
   * deleted (evicted here, or deleted and inserted again at the end), so its next key is the oldest.
   */
  private oldest: Iterator<K> | undefined;

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order, and the oldest insertion is dropped first: an entry used again is
    // inserted again, once it is in the older half (moving it on every use would cost more than it saves).
    if (this.stamp - entry.stamp > this.capacity / 2) this.set(key, entry.value);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, stamp: ++this.stamp });
    if (this.entries.size > this.capacity) this.evictOldest();
  }

  protected evictOldest(): void {
    let next = (this.oldest ??= this.entries.keys()).next();
    // An iterator that reached the end stays there, whatever is added after: start again.
    if (next.done) next = (this.oldest = this.entries.keys()).next();
    if (!next.done) this.entries.delete(next.value);
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.letGo();
  }

  /** Deletes every entry whose value `matches` says so of. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
    this.letGo();
  }

  /**
   * A cache below its capacity evicts nothing until it fills again: its iterator, which would hold the
   * Map's table from before a rebuild (and the values deleted from it) until then, is let go.
   */
  private letGo(): void {
    if (this.entries.size < this.capacity) this.oldest = undefined;
  }

  clear(): void {
    this.entries.clear();
    this.oldest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A cache whose entries hold for one version of the stored state (app_meta.context_version, which
 * database triggers move on every change a context depends on): seeing another version empties it.
 */
export class VersionedCache<K, V> {
  private version: string | null = null;
  private readonly entries: BoundedCache<K, V>;

  constructor(capacity: number) {
    this.entries = new BoundedCache<K, V>(capacity);
  }

  get(version: string | null, key: K): V | undefined {
    return version !== null && version === this.version ? this.entries.get(key) : undefined;
  }

  set(version: string, key: K, value: V): void {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    this.entries.set(key, value);
  }

  /** The version the entries hold for: what a request speculates the state is. */
  get currentVersion(): string | null {
    return this.version;
  }

  get size(): number {
    return this.entries.size;
  }

  get capacity(): number {
    return this.entries.capacity;
  }
}

type Revalidated<V> = { value: Promise<V>; period: number; refreshing: boolean };

/**
 * What a lookup of a RevalidatingCache loads, the stored state's version now (one small read, made
 * while the kept value is awaited), and the period now (a time bucket).
 */
type Revalidation<V> = { load: () => Promise<V>; version: () => Promise<string>; period: number };

/**
 * Answers kept for a question asked again, bounded, stale-while-revalidate: a kept answer holds while
 * the state is at the version it was made from (`versionOf`; null: never kept); in a later period it
 * is served once more while one new answer is made in the background. Concurrent lookups of a key
 * share one load: the promise is kept, not its result.
 */
export class RevalidatingCache<K, V> extends BoundedCache<K, Revalidated<V>> {
  constructor(
    capacity: number,
    private readonly name: string,
    private readonly versionOf: (value: V) => string | null,
  ) {
    super(capacity);
  }

  /** The value, and whether it came from the cache. */
  async lookup(key: K, lookup: Revalidation<V>): Promise<{ value: V; cached: boolean }> {
    const entry = this.get(key);
    if (entry) {
      const [made, version] = await Promise.all([entry.value.then((value) => ({ value }), () => null), lookup.version()]);
      if (made && this.versionOf(made.value) === version) {
        if (entry.period !== lookup.period && !entry.refreshing) this.refresh(key, entry, lookup);
        return { value: made.value, cached: true };
      }
    }
    const value = lookup.load();
    this.set(key, { value, period: lookup.period, refreshing: false });
    value.then(
      (made) => this.versionOf(made) === null && this.forget(key, value),
      () => this.forget(key, value),
    );
    return { value: await value, cached: false };
  }

  private refresh(key: K, entry: Revalidated<V>, lookup: Revalidation<V>): void {
    entry.refreshing = true;
    const value = lookup.load();
    value.then(
      (made) => this.versionOf(made) !== null && this.set(key, { value, period: lookup.period, refreshing: false }),
      (error: unknown) => {
        entry.refreshing = false;
        console.warn(`baton: refreshing a cached ${this.name} failed`, loggable(error));
      },
    );
  }

  /** Forgets a load that is not to be kept, unless a newer one took its place. */
  private forget(key: K, value: Promise<V>): void {
    if (this.get(key)?.value === value) this.delete(key);
  }
}
