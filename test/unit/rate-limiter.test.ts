import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { addWindowCounts } from "@/lib/db/queries/rate-limits";
import * as schema from "@/lib/db/schema";
import { RateLimiter, WINDOW_MS, type CountStore } from "@/lib/rate-limit/rate-limiter";
import { ROOT, tempDir } from "../support/server";

// A real libSQL file shared by two limiters, as two instances share one database.
const tmp = tempDir();
const client = createClient({ url: `file:${tmp.dir}/limits.db` });
const db = drizzle(client, { schema });
const store: CountStore = (counts, pruneBefore) => addWindowCounts(db, { counts, pruneBefore });
// Timers never fire in these tests: each flush is called by hand.
const NEVER = 3_600_000;
const T0 = 1_700_000_000_000; // 20 s into a minute

beforeAll(async () => {
  await migrate(client, path.join(ROOT, "drizzle"));
});
afterAll(() => {
  client.close();
  tmp.remove();
});

function takeMany(limiter: RateLimiter, token: string, n: number): number[] {
  return Array.from({ length: n }, () => limiter.take(token));
}

describe("RateLimiter", () => {
  it("lets `limit` requests through a minute, then answers the seconds to the next minute; other tokens are unaffected", () => {
    const now = T0;
    const limiter = new RateLimiter(3, store, () => now, NEVER);
    expect(takeMany(limiter, "tok-a", 4)).toEqual([0, 0, 0, 40]);
    expect(limiter.take("tok-b")).toBe(0);
  });

  it("takes several requests at once, all or none: a take that would pass the limit counts nothing", () => {
    const now = T0;
    const limiter = new RateLimiter(5, store, () => now, NEVER);
    expect(limiter.take("tok-n", 6)).toBe(40);
    expect(limiter.take("tok-n", 3)).toBe(0);
    expect(limiter.take("tok-n", 3)).toBe(40);
    expect(takeMany(limiter, "tok-n", 3)).toEqual([0, 0, 40]);
  });

  it("starts afresh in the next minute", () => {
    let now = T0;
    const limiter = new RateLimiter(2, store, () => now, NEVER);
    expect(takeMany(limiter, "tok-c", 3)).toEqual([0, 0, 40]);
    now = T0 + 40_000;
    expect(limiter.take("tok-c")).toBe(0);
  });

  it("shares counts through the database: a second instance sees the first's requests after a flush", async () => {
    const now = T0 + 5 * WINDOW_MS;
    const a = new RateLimiter(5, store, () => now, NEVER);
    const b = new RateLimiter(5, store, () => now, NEVER);
    expect(takeMany(a, "tok-d", 4)).toEqual([0, 0, 0, 0]);
    await a.flush();
    // b has not read the shared count yet: its first request goes through (the documented slack) …
    expect(b.take("tok-d")).toBe(0);
    await b.flush();
    // … and after its flush it knows the token has used 5 of 5.
    expect(b.take("tok-d")).toBeGreaterThan(0);
    await a.flush();
    const rows = await client.execute({ sql: "SELECT count FROM rate_limit_counts WHERE token_id = ? AND window_start = ?", args: ["tok-d", now - (now % WINDOW_MS)] });
    expect(Number(rows.rows[0]!.count)).toBe(5);
  });

  it("prunes windows older than the previous minute", async () => {
    const old = T0 + 10 * WINDOW_MS;
    const oldLimiter = new RateLimiter(5, store, () => old, NEVER);
    oldLimiter.take("tok-e");
    await oldLimiter.flush();
    const later = old + 3 * WINDOW_MS;
    const limiter = new RateLimiter(5, store, () => later, NEVER);
    limiter.take("tok-f");
    await limiter.flush();
    const rows = await client.execute({ sql: "SELECT count(*) AS n FROM rate_limit_counts WHERE window_start < ?", args: [later - (later % WINDOW_MS) - WINDOW_MS] });
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });

  it("keeps the counts of a failed flush and sends them with the next", async () => {
    const now = T0 + 20 * WINDOW_MS;
    let fail = true;
    const flaky: CountStore = async (counts, pruneBefore) => {
      if (fail) throw new Error("database unavailable");
      return store(counts, pruneBefore);
    };
    const limiter = new RateLimiter(10, flaky, () => now, NEVER);
    takeMany(limiter, "tok-g", 3);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await limiter.flush();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    fail = false;
    limiter.take("tok-g");
    await limiter.flush();
    const rows = await client.execute({ sql: "SELECT count FROM rate_limit_counts WHERE token_id = 'tok-g'" });
    expect(Number(rows.rows[0]!.count)).toBe(4);
  });

  it("through a database outage: the counts are kept, logged once, and sent when it is back", async () => {
    const now = T0 + 30 * WINDOW_MS;
    let down = true;
    const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
    const sent: number[] = [];
    const flaky: CountStore = async (counts, pruneBefore) => {
      sent.push(counts.length);
      if (down) throw refused;
      return store(counts, pruneBefore);
    };
    const limiter = new RateLimiter(10, flaky, () => now, NEVER);
    takeMany(limiter, "tok-h", 2);
    const errors: unknown[] = [];
    const [error, log] = [console.error, console.log];
    console.error = (...args: unknown[]) => errors.push(args);
    console.log = () => {};
    try {
      for (let i = 0; i < 3; i++) await limiter.flush();
      limiter.take("tok-h");
      down = false;
      await limiter.flush();
    } finally {
      [console.error, console.log] = [error, log];
    }
    expect(errors).toHaveLength(1);
    expect(sent).toEqual([1, 1, 1, 1]);
    const rows = await client.execute({ sql: "SELECT count FROM rate_limit_counts WHERE token_id = 'tok-h'" });
    expect(Number(rows.rows[0]!.count)).toBe(3);
  });
});
