import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeBehind } from "@/lib/process/write-behind";
import { runShutdownFlushes } from "@/lib/process/on-shutdown";

/**
 * Writes still held by a test. Every buffer registers for shutdown, and the shutdown test runs them
 * all: after each test the held writes are ended and every buffer written out (draining: at once).
 */
const unended = new Set<() => void>();
let draining = false;

/** A write the test ends by hand, to hold a write under way. */
function heldWrites() {
  const batches: string[][] = [];
  const ends: (() => void)[] = [];
  const write = (items: string[]) => {
    batches.push(items);
    if (draining) return Promise.resolve();
    return new Promise<void>((resolve) => {
      ends.push(resolve);
      unended.add(resolve);
    });
  };
  return { batches, write, endNext: () => ends.shift()!() };
}

let errors: unknown[][];
let logs: unknown[][];
beforeEach(() => {
  errors = [];
  logs = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args));
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logs.push(args));
});

/** What fetch throws when a libSQL server is down: "fetch failed", caused by the refused connection. */
function refused(): Error {
  return new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
}

/** A write that throws `refused()` while `down.value`, else records the batch. */
function outageWrites() {
  const down = { value: true };
  const written: string[][] = [];
  const tried: string[][] = [];
  const write = async (items: string[]) => {
    tried.push(items);
    if (down.value) throw refused();
    written.push(items);
  };
  return { down, written, tried, write };
}
afterEach(async () => {
  vi.useRealTimers();
  draining = true;
  for (const end of unended) end();
  unended.clear();
  await runShutdownFlushes();
  draining = false;
  vi.restoreAllMocks();
});

describe("writeBehind", () => {
  it("writes what came in one batch, flushEvery after the first item, and nothing before", async () => {
    vi.useFakeTimers();
    const batches: string[][] = [];
    const buffer = writeBehind<string>({ name: "test: timed", flushEvery: 1000, maxItems: 100, write: async (items) => void batches.push(items) });
    buffer.add("a");
    await vi.advanceTimersByTimeAsync(500);
    buffer.add("b");
    await vi.advanceTimersByTimeAsync(499);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([["a", "b"]]);
    // Idle, no timer runs; the next item starts one.
    await vi.advanceTimersByTimeAsync(5000);
    expect(batches).toHaveLength(1);
    buffer.add("c");
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toEqual([["a", "b"], ["c"]]);
  });

  it("does not keep the process alive for its timer", () => {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const buffer = writeBehind<string>({ name: "test: unref", flushEvery: 60_000, maxItems: 100, write: async () => {} });
    buffer.add("a");
    const timer = setTimeoutSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    clearTimeout(timer);
  });

  it("writes at once at maxItems, without waiting for the timer", () => {
    const held = heldWrites();
    const buffer = writeBehind<string>({ name: "test: early", flushEvery: 60_000, maxItems: 3, write: held.write });
    for (const item of ["a", "b", "c", "d"]) buffer.add(item);
    expect(held.batches).toEqual([["a", "b", "c"]]);
  });

  it("holds at most one batch behind the write under way, drops past it, and says how many it dropped", async () => {
    const held = heldWrites();
    const buffer = writeBehind<string>({ name: "test items", flushEvery: 60_000, maxItems: 2, write: held.write });
    for (const item of ["a", "b", "c", "d", "e", "f"]) buffer.add(item);
    // a, b are being written; c, d wait; e, f found the buffer full.
    expect(held.batches).toEqual([["a", "b"]]);
    held.endNext();
    await vi.waitFor(() => expect(held.batches).toHaveLength(2));
    expect(held.batches[1]).toEqual(["c", "d"]);
    expect(errors.map((e) => e[0])).toEqual(["baton: dropped 2 of test items: the database was slower than the requests"]);
    held.endNext();
    await buffer.flush();
    expect(held.batches).toHaveLength(2);
  });

  it("never writes two batches at once: a flush waits for the write under way, then writes the rest", async () => {
    const held = heldWrites();
    const buffer = writeBehind<string>({ name: "test: serial", flushEvery: 60_000, maxItems: 100, write: held.write });
    buffer.add("a");
    const first = buffer.flush();
    buffer.add("b");
    const second = buffer.flush();
    expect(held.batches).toEqual([["a"]]);
    held.endNext();
    await first;
    await vi.waitFor(() => expect(held.batches).toEqual([["a"], ["b"]]));
    held.endNext();
    await second;
  });

  it("logs a failed write, throws nothing at whoever adds, and writes the next batch", async () => {
    const written: string[][] = [];
    let fail = true;
    const buffer = writeBehind<string>({
      name: "test: flaky",
      flushEvery: 60_000,
      maxItems: 100,
      write: async (items) => {
        if (fail) throw new Error("database unavailable");
        written.push(items);
      },
    });
    buffer.add("lost");
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBe("baton: could not write test: flaky");
    fail = false;
    buffer.add("next");
    await buffer.flush();
    expect(written).toEqual([["next"]]);
  });

  it("is written by the shutdown flushes, after the write under way", async () => {
    const held = heldWrites();
    const buffer = writeBehind<string>({ name: "test: at shutdown", flushEvery: 60_000, maxItems: 100, write: held.write });
    buffer.add("a");
    void buffer.flush();
    buffer.add("b");
    let done = false;
    const shutdown = runShutdownFlushes().then(() => (done = true));
    held.endNext();
    await vi.waitFor(() => expect(held.batches).toEqual([["a"], ["b"]]));
    expect(done).toBe(false);
    held.endNext();
    await shutdown;
  });

  it("keeps a batch the database was away for, tries again with growing waits, and writes it when the database is back; one line at each end of the outage", async () => {
    vi.useFakeTimers();
    const db = outageWrites();
    const buffer = writeBehind<string>({ name: "test: outage", flushEvery: 1000, maxItems: 100, write: db.write });
    buffer.add("a");
    buffer.add("b");
    await vi.advanceTimersByTimeAsync(1000);
    expect(db.tried).toEqual([["a", "b"]]);
    buffer.add("c");
    // Tried again 1 s after the failure, then 2 s after that, then 4 s: the oldest first.
    await vi.advanceTimersByTimeAsync(1000);
    expect(db.tried.at(-1)).toEqual(["a", "b", "c"]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(db.tried).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.tried).toHaveLength(3);
    db.down.value = false;
    await vi.advanceTimersByTimeAsync(4000);
    expect(db.written).toEqual([["a", "b", "c"]]);
    expect(errors.map((e) => e[0])).toEqual([
      "baton: could not write test: outage, the database is unavailable (connect ECONNREFUSED 127.0.0.1:9): keeping it to write when the database is back",
    ]);
    expect(logs.map((l) => l[0])).toEqual(["baton: wrote test: outage again after 7 s without the database"]);
    // Back to the usual rhythm.
    buffer.add("d");
    await vi.advanceTimersByTimeAsync(1000);
    expect(db.written).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("in an outage past maxItems, the oldest give way to the newest, and the recovery line counts them", async () => {
    vi.useFakeTimers();
    const db = outageWrites();
    const buffer = writeBehind<string>({ name: "test: full outage", flushEvery: 1000, maxItems: 3, write: db.write });
    for (const item of ["a", "b"]) buffer.add(item);
    await vi.advanceTimersByTimeAsync(1000);
    for (const item of ["c", "d", "e"]) buffer.add(item);
    // No write at maxItems while the database is away: the next try is after the wait.
    expect(db.tried).toHaveLength(1);
    db.down.value = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(db.written).toEqual([["c", "d", "e"]]);
    expect(logs.map((l) => l[0])).toEqual(["baton: wrote test: full outage again after 1 s without the database (2 of it gave way to newer, the buffer being full)"]);
  });
});
