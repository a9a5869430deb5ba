import { onShutdown } from "../shutdown/on-shutdown";

/**
 * Bookkeeping a request adds and nothing waits for (the served-context log, tokens' last use,
 * rate-limit counts), written in one batch at most `flushEvery` ms after the first item waits: a busy
 * server then writes once a second instead of once or twice per request. Graceful shutdown writes
 * what is left (lib/shutdown/on-shutdown.ts); a kill loses it.
 */
export type WriteBehind<T> = {
  /** Buffers an item: never throws, never waits. */
  add(item: T): void;
  /** Writes what is buffered, after the write under way: resolves once it is written (or logged as failed). */
  flush(): Promise<void>;
};

export type WriteBehindOptions<T> = {
  /** What the items are, for the shutdown registry and the log ("rate-limit counts"). */
  name: string;
  flushEvery: number;
  /**
   * At this many items the buffer is written at once instead of when the timer fires: a burst is
   * written, not dropped, and no batch grows past it. Only while a write is under way and another
   * full batch waits behind it are further items dropped (and counted in the log): the database is
   * then slower than the requests, and waiting batches would otherwise pile up in memory for as long
   * as it stays slow or away. At most two batches are held, one being written and one waiting.
   */
  maxItems: number;
  /** Writes one batch; a failure is logged, and the next batch is written as usual. */
  write: (items: T[]) => Promise<void>;
};

export function writeBehind<T>({ name, flushEvery, maxItems, write }: WriteBehindOptions<T>): WriteBehind<T> {
  let items: T[] = [];
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The write under way, and the flush waiting for it to end. */
  let writing: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  async function writeLogged(batch: T[], lost: number): Promise<void> {
    if (lost) console.error(`baton: dropped ${lost} of ${name}: the database was slower than the requests`);
    try {
      await write(batch);
    } catch (error) {
      console.error(`baton: could not write ${name}`, error);
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (writing) {
      return (next ??= writing.then(() => {
        next = null;
        return flush();
      }));
    }
    if (!items.length) return Promise.resolve();
    const batch = items;
    const lost = dropped;
    items = [];
    dropped = 0;
    writing = writeLogged(batch, lost).finally(() => (writing = null));
    return writing;
  }

  onShutdown(name, flush);
  return {
    add(item) {
      if (items.length >= maxItems) {
        dropped++;
        return;
      }
      items.push(item);
      if (items.length >= maxItems) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushEvery);
        // A waiting write must not keep a process alive that has nothing else to do (a test, `baton admin`).
        timer.unref?.();
      }
    },
    flush,
  };
}
