import type { WindowCount } from "../db/queries/rate-limits";
import { keptOnFailure, writeBehind } from "../process/write-behind";

/** The window a limit counts over. */
export const WINDOW_MS = 60_000;
/** How often an instance adds its counts to the shared table. */
export const FLUSH_MS = 1000;
/** Tokens with unsent counts that make a batch be sent at once. */
const MAX_TOKENS_PER_BATCH = 10_000;

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
  /**
   * The tokens whose counts went from none unsent to some. A batch sends every unsent count, so a
   * token left out of a full buffer still goes with the next.
   */
  #unsent;

  constructor(
    readonly limit: number,
    private readonly store: CountStore,
    private readonly now: () => number = Date.now,
    flushMs = FLUSH_MS,
  ) {
    this.#unsent = writeBehind<string>({ name: "rate-limit counts", flushEvery: flushMs, maxItems: MAX_TOKENS_PER_BATCH, write: () => this.#send() });
  }

  /**
   * Counts `count` requests of the token (a JSON-RPC batch is as many requests as it holds messages) and
   * answers 0, or, when they would take it past the limit, counts none and answers the seconds until
   * the next window.
   */
  take(tokenId: string, count = 1): number {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    if (windowStart !== this.#windowStart) {
      // Last minute's unsent counts no longer decide anything.
      this.#windowStart = windowStart;
      this.#entries.clear();
    }
    let entry = this.#entries.get(tokenId);
    if (!entry) this.#entries.set(tokenId, (entry = { pending: 0, shared: 0 }));
    if (entry.shared + entry.pending + count > this.limit) return Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    if (entry.pending === 0) this.#unsent.add(tokenId);
    entry.pending += count;
    return 0;
  }

  /** Sends the unsent counts now (the timer does this about once a second; shutdown once more). */
  flush(): Promise<void> {
    return this.#unsent.flush();
  }

  async #send(): Promise<void> {
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
      // Counted again with the next batch, so an outage of the database never loses requests. The
      // buffer keeps a batch the database was away for (and tries it again); any other, it is told again.
      if (windowStart === this.#windowStart) {
        for (const [tokenId, count] of sent) {
          const entry = this.#entries.get(tokenId);
          if (entry) entry.pending += count;
          if (!keptOnFailure(error)) this.#unsent.add(tokenId);
        }
      }
      throw error;
    }
  }
}
