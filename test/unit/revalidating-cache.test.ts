import { afterEach, describe, expect, it, vi } from "vitest";
import { RevalidatingCache } from "@/lib/process/bounded-cache";

/** A made value: what it says, and the version it was made from (null: not to be kept). */
type Made = { text: string; version: string | null };

const newCache = (capacity = 10) => new RevalidatingCache<string, Made>(capacity, "test value", (m) => m.version);

/** Loads answering the given values in turn, counted. */
function loads(...values: Made[]) {
  const load = vi.fn(async () => values.shift()!);
  return load;
}

const at = (version: string) => async () => version;

afterEach(() => vi.restoreAllMocks());

describe("RevalidatingCache", () => {
  it("keeps a value while the state is at its version, and loads again once it moved", async () => {
    const cache = newCache();
    const load = loads({ text: "one", version: "1" }, { text: "two", version: "2" });
    expect(await cache.lookup("k", { load, version: at("1"), period: 0 })).toEqual({ value: { text: "one", version: "1" }, cached: false });
    expect(await cache.lookup("k", { load, version: at("1"), period: 0 })).toEqual({ value: { text: "one", version: "1" }, cached: true });
    expect(await cache.lookup("k", { load, version: at("2"), period: 0 })).toEqual({ value: { text: "two", version: "2" }, cached: false });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("shares one load among concurrent lookups of a key", async () => {
    const cache = newCache();
    const load = loads({ text: "one", version: "1" });
    const answers = await Promise.all([1, 2, 3].map(() => cache.lookup("k", { load, version: at("1"), period: 0 })));
    expect(answers.map((a) => a.value.text)).toEqual(["one", "one", "one"]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("in a newer period serves the kept value once more, makes one fresh value meanwhile, then serves it", async () => {
    const cache = newCache();
    let endRefresh!: (made: Made) => void;
    const load = vi
      .fn<() => Promise<Made>>()
      .mockResolvedValueOnce({ text: "stale", version: "1" })
      .mockReturnValueOnce(new Promise((resolve) => (endRefresh = resolve)));
    await cache.lookup("k", { load, version: at("1"), period: 0 });
    // The next minute: the old value, at once, twice, with one refresh under way for both.
    expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("stale");
    expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("stale");
    expect(load).toHaveBeenCalledTimes(2);
    endRefresh({ text: "fresh", version: "1" });
    await vi.waitFor(async () => expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("fresh"));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("keeps nothing that must not be kept, nor a failed load", async () => {
    const cache = newCache();
    const load = loads({ text: "moved while made", version: null }, { text: "kept", version: "1" });
    expect((await cache.lookup("k", { load, version: at("1"), period: 0 })).value.text).toBe("moved while made");
    expect(cache.size).toBe(0);
    const failing = vi.fn(async (): Promise<Made> => Promise.reject(new Error("database unavailable")));
    await expect(cache.lookup("k", { load: failing, version: at("1"), period: 0 })).rejects.toThrow("database unavailable");
    expect(cache.size).toBe(0);
    expect((await cache.lookup("k", { load, version: at("1"), period: 0 })).cached).toBe(false);
    expect((await cache.lookup("k", { load, version: at("1"), period: 0 })).cached).toBe(true);
  });

  it("after a failed refresh, logs it, serves the kept value, and refreshes again when asked next", async () => {
    const warnings: unknown[][] = [];
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args));
    const cache = newCache();
    const load = vi
      .fn<() => Promise<Made>>()
      .mockResolvedValueOnce({ text: "stale", version: "1" })
      .mockRejectedValueOnce(new Error("database unavailable"))
      .mockResolvedValueOnce({ text: "fresh", version: "1" });
    await cache.lookup("k", { load, version: at("1"), period: 0 });
    expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("stale");
    await vi.waitFor(() => expect(warnings.map((w) => w[0])).toEqual(["baton: refreshing a cached test value failed"]));
    expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("stale");
    await vi.waitFor(async () => expect((await cache.lookup("k", { load, version: at("1"), period: 1 })).value.text).toBe("fresh"));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("holds at most its capacity", async () => {
    const cache = newCache(3);
    for (let i = 0; i < 10; i++) await cache.lookup(`k${i}`, { load: async () => ({ text: "v", version: "1" }), version: at("1"), period: 0 });
    expect(cache.size).toBe(3);
    expect(cache.capacity).toBe(3);
  });
});
