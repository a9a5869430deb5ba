import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundedCache, VersionedCache } from "@/lib/process/bounded-cache";
import { CACHE_LIMITS, contextCaches } from "@/lib/context/read/caches";
import { responseCache, RESPONSE_CACHE_LIMIT } from "@/lib/context/serve/serve-context";
import { FreshIteratorCache } from "../support/fresh-iterator-cache";

describe("the context engine's caches", () => {
  it("an LRU keeps at most its capacity, dropping the least recently used", () => {
    const cache = new BoundedCache<string, number>(3);
    for (const k of ["a", "b", "c"]) cache.set(k, k.charCodeAt(0));
    cache.get("a");
    cache.set("d", 4);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(97);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it("evicts exactly as a cache that looks for the oldest entry afresh each time, through any mix of uses", () => {
    const key = fc.integer({ min: 0, max: 40 }).map((n) => `k${n}`);
    const op = fc.oneof(
      fc.record({ op: fc.constant("get" as const), key }),
      fc.record({ op: fc.constant("set" as const), key, value: fc.nat() }),
      fc.record({ op: fc.constant("delete" as const), key }),
      fc.record({ op: fc.constant("deleteWhere" as const), below: fc.nat({ max: 50 }) }),
      fc.record({ op: fc.constant("clear" as const) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 400 }), (capacity, ops) => {
        const cache = new BoundedCache<string, number>(capacity);
        const plain = new FreshIteratorCache<string, number>(capacity);
        for (const o of ops) {
          if (o.op === "get") expect(cache.get(o.key)).toBe(plain.get(o.key));
          else if (o.op === "set") {
            cache.set(o.key, o.value);
            plain.set(o.key, o.value);
          } else if (o.op === "delete") {
            cache.delete(o.key);
            plain.delete(o.key);
          } else if (o.op === "deleteWhere") {
            cache.deleteWhere((v) => v < o.below);
            plain.deleteWhere((v) => v < o.below);
          } else {
            cache.clear();
            plain.clear();
          }
          expect(cache.size).toBe(plain.size);
        }
        for (let n = 0; n <= 40; n++) expect(cache.get(`k${n}`)).toBe(plain.get(`k${n}`));
      }),
      { numRuns: 500, seed: 27 },
    );
  });

  it("deletes every entry whose value matches (a revoked token under each of its hashes)", () => {
    const cache = new BoundedCache<string, { id: string }>(10);
    cache.set("h1", { id: "t1" });
    cache.set("h2", { id: "t2" });
    cache.set("h3", { id: "t1" });
    cache.deleteWhere((v) => v.id === "t1");
    expect([cache.get("h1"), cache.get("h2"), cache.get("h3")]).toEqual([undefined, { id: "t2" }, undefined]);
    expect(cache.size).toBe(1);
  });

  it("a versioned cache answers only for the version it holds, and forgets everything when another comes", () => {
    const cache = new VersionedCache<string, number>(10);
    cache.set("7", "token", 3);
    expect(cache.get("7", "token")).toBe(3);
    expect(cache.get("8", "token")).toBeUndefined();
    expect(cache.get(null, "token")).toBeUndefined();
    cache.set("8", "refresh", 5);
    expect(cache.size).toBe(1);
    expect(cache.get("8", "token")).toBeUndefined();
    for (let i = 0; i < 50; i++) cache.set("8", `w${i}`, i);
    expect(cache.size).toBe(10);
  });

  it("every cache an instance keeps stays at its limit however much passes through it", async () => {
    const caches = contextCaches();
    const fill = (set: (key: string) => void, limit: number) => {
      for (let i = 0; i < limit + 100; i++) set(`key ${i}`);
    };
    const snapshot = { version: "1", project: null, seed: undefined, sections: { queued: 0, proposals: { items: [], total: 0 }, counts: { pattern: 0, insight: 0, self_knowledge: 0 }, pinned: [] } };
    fill((k) => caches.snapshots.set(k, snapshot), CACHE_LIMITS.snapshots);
    fill((k) => caches.frequencies.set("1", k, 1), CACHE_LIMITS.frequencies);
    fill((k) => caches.recent.set("1", k, []), CACHE_LIMITS.recent);
    expect(caches.snapshots.size).toBe(CACHE_LIMITS.snapshots);
    expect(caches.frequencies.size).toBe(CACHE_LIMITS.frequencies);
    expect(caches.recent.size).toBe(CACHE_LIMITS.recent);
    const responses = responseCache();
    expect(responses.capacity).toBe(RESPONSE_CACHE_LIMIT);
    const rendered = { served: { built: { sections: [] } } as never, version: "1" };
    const asked: Promise<unknown>[] = [];
    fill((k) => asked.push(responses.lookup(k, { load: async () => rendered, version: async () => "1", period: 0 })), RESPONSE_CACHE_LIMIT);
    await Promise.all(asked);
    expect(responses.size).toBe(RESPONSE_CACHE_LIMIT);
  });
});
