import { AsyncLocalStorage } from "node:async_hooks";
import { innermostMessage, isDatabaseUnavailable } from "../db/database-unavailable";
import { onShutdown } from "./on-shutdown";
import { processWide } from "./process-state";
import { loggable } from "./loggable-error";

// One for the process: the buffers that mark their writes and the database handle that reads the mark
// may be bundled apart, each with its own copy of this module (process-state.ts).
const bookkeepingScope = processWide("bookkeeping scope", () => new AsyncLocalStorage<true>());

/**
 * Runs `work` as bookkeeping, as every write-behind batch runs: a write no later read waits for. A file
 * database writes it on a thread of its own (lib/db/bookkeeping.ts); an embedded replica does not make
 * the next read wait for a sync to read it back (lib/db/replica-client.ts).
 */
export function asBookkeeping<T>(work: () => Promise<T>): Promise<T> {
  return bookkeepingScope.run(true, work);
}

export function inBookkeeping(): boolean {
  return bookkeepingScope.getStore() === true;
}

/**
 * Whether a batch whose write failed with `error` is kept and written again: the database could not be
 * reached (lib/db/database-unavailable.ts), so the same write will be answered once it is back. Any
 * other failure is logged and the batch dropped, as a write that fails the same way again would be.
 */
export function keptOnFailure(error: unknown): boolean {
  return isDatabaseUnavailable(error);
}

/** The longest wait between two tries of a kept batch while the database stays away. */
const MAX_RETRY_MS = 10_000;

type Options<T> = { name: string; flushEvery: number; maxItems: number; write: (items: T[]) => Promise<void> };

/**
 * Bookkeeping that requests add and nothing waits for (the served-context log, tokens' last use,
 * rate-limit counts), written in one batch at most `flushEvery` ms after the first item came: a busy
 * server writes once a second instead of once or twice per request. Batches are written one at a
 * time; a failed one is logged, never thrown at a request, and the next is written as usual. Graceful
 * shutdown writes what is left (on-shutdown.ts); a kill loses it.
 *
 * Bounded: at `maxItems` the buffer is written at once, not dropped, so a burst is written whole.
 * Only when a full batch already waits behind the write under way are further items dropped (and
 * counted in the log): the database is then slower than the requests, and batches would otherwise
 * pile up in memory for as long as it stays so.
 *
 * An outage (a libSQL server restarting, an embedded replica's primary away) loses nothing it outlasts
 * within `maxItems`: the failed batch goes back in front of the buffer and is tried again, after
 * flushEvery, then twice as long each time up to 10 s. Past `maxItems` the oldest items give way to
 * the newest. It is logged once when it starts and once when a write succeeds again, with how many
 * items gave way meanwhile.
 */
export function writeBehind<T>(options: Options<T>): { add: (item: T) => void; flush: () => Promise<void> } {
  const buffer = new WriteBehind(options);
  onShutdown(options.name, () => buffer.flush());
  return { add: (item) => buffer.add(item), flush: () => buffer.flush() };
}

class WriteBehind<T> {
  private items: T[] = [];
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The write under way, and the flush waiting for it to end. */
  private writing: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** Set while the database is away: when it went, the wait before the next try, items that gave way. */
  private outage: { since: number; retryMs: number; dropped: number } | null = null;

  constructor(private readonly options: Options<T>) {}

  add(item: T): void {
    const { maxItems, flushEvery } = this.options;
    if (this.items.length >= maxItems) {
      if (!this.outage) {
        this.dropped++;
        return;
      }
      // Kept through an outage: the newest matter more than the oldest (a session's latest context).
      this.items.shift();
      this.outage.dropped++;
    }
    this.items.push(item);
    // While the database is away, the next try writes it (scheduled when the last one failed).
    if (this.outage) return;
    if (this.items.length >= maxItems) void this.flush();
    else if (!this.timer) this.schedule(flushEvery);
  }

  /** Writes what is buffered, after the write under way; resolves once written or logged as failed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing) {
      this.next ??= this.writing.then(() => {
        this.next = null;
        return this.flush();
      });
      return this.next;
    }
    if (!this.items.length) return Promise.resolve();
    const [batch, lost] = [this.items, this.dropped];
    this.items = [];
    this.dropped = 0;
    this.writing = this.writeBatch(batch, lost).finally(() => (this.writing = null));
    return this.writing;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
    // A waiting write must not keep a process alive that has nothing else to do.
    this.timer.unref?.();
  }

  private async writeBatch(batch: T[], lost: number): Promise<void> {
    const { name } = this.options;
    if (lost) console.error(`baton: dropped ${lost} of ${name}: the database was slower than the requests`);
    try {
      await asBookkeeping(() => this.options.write(batch));
    } catch (error) {
      if (keptOnFailure(error)) return this.keep(batch, error);
      console.error(`baton: could not write ${name}`, loggable(error));
      return;
    }
    if (this.outage) {
      const { since, dropped } = this.outage;
      this.outage = null;
      console.log(`baton: wrote ${name} again after ${Math.round((Date.now() - since) / 1000)} s without the database${dropped ? ` (${dropped} of it gave way to newer, the buffer being full)` : ""}`);
      if (this.items.length) this.schedule(this.options.flushEvery);
    }
  }

  /** Puts a batch the database was away for back in front of the buffer, and tries again later. */
  private keep(batch: T[], error: unknown): void {
    const { name, maxItems, flushEvery } = this.options;
    if (this.outage) this.outage.retryMs = Math.min(this.outage.retryMs * 2, MAX_RETRY_MS);
    else {
      this.outage = { since: Date.now(), retryMs: flushEvery, dropped: 0 };
      console.error(`baton: could not write ${name}, the database is unavailable (${innermostMessage(error)}): keeping it to write when the database is back`);
    }
    this.items = [...batch, ...this.items];
    const over = this.items.length - maxItems;
    if (over > 0) {
      this.items.splice(0, over);
      this.outage.dropped += over;
    }
    this.schedule(this.outage.retryMs);
  }
}
