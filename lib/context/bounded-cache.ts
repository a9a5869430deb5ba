/**
 * A least-recently-used map (nearly: see get) with a size limit: every cache of the context engine is one of these, so
 * none grows without bound however many users, projects, words or lines pass through an instance.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; stamp: number }>();
  private stamp = 0;

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
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Deletes every entry whose value `matches` says so of. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
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
