import { describe, expect, it } from "vitest";
import { send } from "../support/page-form";
import { sideClient } from "../support/side-db";
import { testWorld } from "../support/world";

/**
 * Another process holding an embedded database's write lock (a second instance on the same file, the
 * admin CLI, a backup) while the server's bookkeeping comes due: the bookkeeping waits for the lock in
 * its own thread (lib/db/bookkeeping.ts), the server goes on answering, and what it buffered is
 * written once the lock is released. Written on the event loop, the flush held the whole server for
 * the busy timeout and then failed, and the served log it held was lost.
 */
const world = testWorld({ users: ["ana"], projects: { alpha: "ana" }, members: [], tokens: {} });

// The buffered bookkeeping is written at most this long after its first item (lib/context/serve/served-log.ts).
const FLUSH_MS = 1000;

const count = async (query: string) => Number((await world.sql(query))[0]!.n);

describe("bookkeeping while another process holds the write lock", () => {
  it("the server answers meanwhile, and writes its served log, token use and rate-limit counts once the lock is released", async () => {
    const ana = world.as("ana");
    // What making the cast buffered is written first.
    await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 500));
    const logged = await count("SELECT count(*) AS n FROM context_log");
    const counted = await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts");
    const holder = sideClient(world.databaseUrl);
    const lock = await holder.transaction("write");
    let released = false;
    try {
      expect((await ana("GET", "/api/context?project=alpha&sessionId=lock-1")).status).toBe(200);
      expect((await ana("GET", "/api/context?project=alpha&sessionId=lock-2&q=deploy")).status).toBe(200);
      // The flushes come due and wait for the lock.
      await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 500));
      expect((await send(world.server.port, "/api/health")).status).toBe(200);
      expect((await ana("GET", "/api/context?project=alpha&sessionId=lock-3")).status).toBe(200);
      expect(await count("SELECT count(*) AS n FROM context_log")).toBe(logged);
      await lock.commit();
      released = true;
    } finally {
      if (!released) lock.close();
      holder.close();
    }
    await expect.poll(() => count("SELECT count(*) AS n FROM context_log"), { timeout: 10_000 }).toBe(logged + 3);
    // Three requests counted (fewer only if a minute ended among them: last minute's unsent counts are dropped).
    await expect.poll(() => count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts"), { timeout: 10_000 }).toBeGreaterThan(counted);
  }, 60_000);
});
