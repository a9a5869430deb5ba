/**
 * A small LRU of rendered context responses. Safe because a context is a pure function of the stored
 * state and the query: entries carry the state's version (bumped by database triggers on every change
 * a context depends on, so all instances on one database agree) and a one-minute time bucket (so
 * "2 h ago" style times are refreshed at least that often).
 */
export class ContextCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The finest unit of the context's relative times is the minute ("25 min ago"): refreshing once a minute is enough. */
export const TIME_BUCKET_MS = 60_000;
