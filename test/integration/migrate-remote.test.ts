import { createClient } from "@libsql/client";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDelayProxy, type DelayProxy } from "@/bench/delay-proxy";
import { migrate } from "@/lib/db/migrate";
import { ROOT } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

const folder = path.join(ROOT, "drizzle");
/** A database in another building: every HTTP request to sqld takes this long there and back. */
const RTT_MS = 20;

/**
 * SPEC §8: migrations apply once, safely, whichever instance starts first. Two instances starting at
 * once on a new remote database: one applies while the other waits for the write lock, which sqld
 * gives a waiting transaction about 5 s of. A migration that took a round trip per statement (10 s at
 * this distance) made the waiting instance fail with TRANSACTION_TIMEOUT, and its start with it.
 */
describe("migrations on a new remote database, two instances at once", () => {
  let sqld: Sqld;
  let proxy: DelayProxy;
  beforeAll(async () => {
    sqld = await startSqld();
    proxy = await startDelayProxy(sqld.url, RTT_MS);
  });
  afterAll(async () => {
    await proxy?.stop();
    await sqld?.stop();
  });

  it("both succeed and the schema is applied once", async () => {
    const [a, b] = [createClient({ url: proxy.url }), createClient({ url: proxy.url })];
    try {
      const started = Date.now();
      const [ra, rb] = await Promise.all([migrate(a, folder), migrate(b, folder)]);
      expect(ra.applied.length + rb.applied.length).toBe(ra.total);
      expect([ra.applied.length, rb.applied.length].sort((x, y) => x - y)).toEqual([0, ra.total]);
      const rows = await a.execute("SELECT count(*) AS n, count(DISTINCT created_at) AS distinct_n FROM __drizzle_migrations");
      expect(Number(rows.rows[0]!.n)).toBe(ra.total);
      expect(Number(rows.rows[0]!.distinct_n)).toBe(ra.total);
      expect((await migrate(a, folder)).applied).toEqual([]);
      // A start is not held for long by the distance: a few round trips, not one per statement.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      a.close();
      b.close();
    }
  }, 60_000);
});
