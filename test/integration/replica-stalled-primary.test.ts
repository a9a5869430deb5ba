import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReplica } from "@/lib/db/replica-client";
import type { Client } from "@libsql/client";
import { tempDir } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

// An embedded replica whose primary stalls (SIGSTOP: the process is there, answers nothing). The
// replica's sync is a synchronous call in a worker, so a stalled primary holds it: after this instance
// wrote, the first read waits for a sync up to the timeout, and then the primary counts as away. Every
// later read answers from the local file at once, until a write or a sync reaches the primary again.
// Before, every read after a write waited the whole timeout again: a context of two read batches took
// 2 × 1.5 s on a stalled primary (seen in shape-faults.test.ts, against its 2 s limit).

const TIMEOUT_MS = 1_500;
const tmp = tempDir("baton-replica-stall-");
let primary: Sqld;
let replica: Client;

beforeAll(async () => {
  primary = await startSqld();
  replica = await openReplica({ file: `${tmp.dir}/replica.db`, syncUrl: primary.url, intervalSeconds: 60, timeoutMs: TIMEOUT_MS, fetch: (request) => fetch(request, { signal: AbortSignal.timeout(TIMEOUT_MS) }) });
  await replica.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
}, 60_000);
afterAll(async () => {
  replica?.close();
  await primary?.stop();
  tmp.remove();
});

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

describe("an embedded replica while its primary is stalled", () => {
  it("reads its own write back while the primary answers", async () => {
    await replica.execute({ sql: "INSERT INTO notes (body) VALUES (?)", args: ["first"] });
    expect((await replica.execute("SELECT body FROM notes")).rows.map((r) => r.body)).toEqual(["first"]);
  });

  it("waits for one sync after a write, then answers every read from its file at once; a write that reaches the primary again brings read-your-writes back", async () => {
    await replica.execute({ sql: "INSERT INTO notes (body) VALUES (?)", args: ["second"] });
    await primary.pause();
    try {
      const first = await timed(() => replica.execute("SELECT count(*) AS n FROM notes"));
      expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      for (let i = 0; i < 3; i++) {
        const next = await timed(() => replica.execute("SELECT count(*) AS n FROM notes"));
        expect(next.ms, `read ${i + 2} after the failed sync`).toBeLessThan(TIMEOUT_MS / 3);
      }
    } finally {
      primary.resume();
    }
    // The primary is back: a write reaches it, and the next read waits for the sync that brings it.
    await replica.execute({ sql: "INSERT INTO notes (body) VALUES (?)", args: ["third"] });
    expect((await replica.execute("SELECT body FROM notes ORDER BY id")).rows.map((r) => r.body)).toEqual(["first", "second", "third"]);
  }, 30_000);
});
