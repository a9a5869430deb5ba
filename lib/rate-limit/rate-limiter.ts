import type { WindowCount } from "../db/queries/rate-limits";

/** The window a limit counts over. */
export const WINDOW_MS = 60_000;
/** How often an instance adds its counts to the shared table. */
export const FLUSH_MS = 1000;

/** Adds counts to the shared table and answers the shared totals of the tokens sent. */
export type CountStore = (counts: WindowCount[], pruneBefore: number) => Promise<WindowCount[]>;

type Entry = { pending: number; shared: number };

/**
 * Requests per token per minute, shared by every instance on one database without a write per
 * request: each instance counts in memory, and about once a second adds its new counts to the shared
 * table in one batched upsert, reading back the totals of the tokens it sent. A request is let
 * through while the last known shared total plus this instance's unsent count is under the limit.
 * So a token is held at the limit across instances with a slack of at most about one second of its
 * traffic per instance (the counts another instance has not sent yet, or this one has not read).
 */
export class RateLimiter {
  #windowStart = -1;
  #entries = new Map<string, Entry>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: number,
    private readonly store: CountStore,
    private readonly now: () => number = Date.now,
    private readonly flushMs = FLUSH_MS,
  ) {}

  /** Counts a request of the token and answers 0, or, over the limit, the seconds until the next window. */
  take(tokenId: string): number {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    if (windowStart !== this.#windowStart) {
      // Last minute's unsent counts no longer decide anything.
      this.#windowStart = windowStart;
      this.#entries.clear();
    }
    let entry = this.#entries.get(tokenId);
    if (!entry) this.#entries.set(tokenId, (entry = { pending: 0, shared: 0 }));
    if (entry.shared + entry.pending >= this.limit) return Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    entry.pending++;
    this.#schedule();
    return 0;
  }

  /** Sends the unsent counts now (the timer does this about once a second; shutdown once more). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#send());
    return this.#flushing;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), this.flushMs);
    this.#timer.unref?.();
  }

  async #send(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const windowStart = this.#windowStart;
    const sent = new Map<string, number>();
    for (const [tokenId, entry] of this.#entries) {
      if (!entry.pending) continue;
      sent.set(tokenId, entry.pending);
      entry.pending = 0;
    }
    if (!sent.size) return;
    const counts = [...sent].map(([tokenId, count]) => ({ tokenId, windowStart, count }));
    try {
      const totals = await this.store(counts, windowStart - WINDOW_MS);
      if (windowStart !== this.#windowStart) return;
      for (const total of totals) {
        const entry = this.#entries.get(total.tokenId);
        if (entry && total.windowStart === windowStart) entry.shared = total.count;
      }
    } catch (error) {
      console.error("baton: could not share rate-limit counts", error);
      // Counted again with the next batch, so an outage of the database never loses requests.
      if (windowStart !== this.#windowStart) return;
      for (const [tokenId, count] of sent) {
        const entry = this.#entries.get(tokenId);
        if (entry) entry.pending += count;
      }
      this.#schedule();
    }
  }
}
