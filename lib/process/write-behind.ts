import { AsyncLocalStorage } from "node:async_hooks";
import { onShutdown } from "./on-shutdown";
import { processWide } from "./process-state";

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
 */
export function writeBehind<T>({ name, flushEvery, maxItems, write }: { name: string; flushEvery: number; maxItems: number; write: (items: T[]) => Promise<void> }) {
  let items: T[] = [];
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The write under way, and the flush waiting for it to end. */
  let writing: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  async function writeBatch(batch: T[], lost: number): Promise<void> {
    if (lost) console.error(`baton: dropped ${lost} of ${name}: the database was slower than the requests`);
    try {
      await asBookkeeping(() => write(batch));
    } catch (error) {
      console.error(`baton: could not write ${name}`, error);
    }
  }

  /** Writes what is buffered, after the write under way; resolves once written or logged as failed. */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (writing) {
      next ??= writing.then(() => {
        next = null;
        return flush();
      });
      return next;
    }
    if (!items.length) return Promise.resolve();
    const [batch, lost] = [items, dropped];
    items = [];
    dropped = 0;
    writing = writeBatch(batch, lost).finally(() => (writing = null));
    return writing;
  }

  onShutdown(name, flush);
  return {
    add(item: T): void {
      if (items.length >= maxItems) {
        dropped++;
        return;
      }
      items.push(item);
      if (items.length >= maxItems) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushEvery);
        // A waiting write must not keep a process alive that has nothing else to do.
        timer.unref?.();
      }
    },
    flush,
  };
}
