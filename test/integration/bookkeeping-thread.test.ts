import { createClient, LibsqlError } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withBookkeepingThread } from "@/lib/db/bookkeeping";
import { asBookkeeping } from "@/lib/process/write-behind";
import { openDatabase, type Db } from "@/lib/db/client";
import { clientOf } from "@/lib/db/client-of";
import { injectedUpdates, recordServedBatch } from "@/lib/db/queries/context";
import { addWindowCounts } from "@/lib/db/queries/rate-limits";
import { migratedDatabase, learningRow } from "../support/migrated-db";
import { tempDir } from "../support/server";
import { sideClient } from "../support/side-db";

/**
 * Bookkeeping on an embedded file is written by a thread of its own (lib/db/bookkeeping.ts): libSQL
 * runs a file's statements synchronously, so written on the event loop a large flush, or one waiting
 * for another process's write lock, held every request with it.
 */

const tmp = tempDir("baton-bookkeeping-");
const url = `file:${tmp.dir}/baton.db`;
let db: Db;
let close: () => void;

beforeAll(async () => {
  ({ db, close } = await migratedDatabase(url, { rows: Array.from({ length: 50 }, (_, i) => learningRow(`l${i}`, `learning ${i}`)) }));
});

afterAll(() => {
  close();
  tmp.remove();
});

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12));
const rowsOf = async (query: string) => {
  const side = sideClient(url);
  try {
    return (await side.execute(query)).rows;
  } finally {
    side.close();
  }
};
const injectedDays = async () => (await rowsOf("SELECT id, last_injected_at AS at FROM learnings WHERE last_injected_at IS NOT NULL ORDER BY id")).map((r) => [r.id, r.at]);
const served = (at: Date, ids: string[]) => ({ userId: "u1", projectId: "p1", tokenId: null, source: "session-start" as const, budget: 700, tokenEstimate: 100, learningsShown: ids.length, learningIds: ids, at, sessionId: null });

describe("bookkeeping on an embedded file", () => {
  it("is written, and answers what a write answers", async () => {
    await asBookkeeping(() => recordServedBatch(db, [served(day(3), ["l1", "l2"]), served(day(3), ["l2", "l3"])]));
    expect(await injectedDays()).toEqual(["l1", "l2", "l3"].map((id) => [id, day(3).getTime()]));
    const [update] = injectedUpdates(db, [{ userId: "u1", projectId: "p1", ids: new Set(["l4", "l5", "l1"]), at: day(4) }]);
    const [result] = await asBookkeeping(() => db.batch([update!]));
    // l1 was marked on day 3, so all three are marked on day 4.
    expect(result).toMatchObject({ rowsAffected: 3, rows: [] });
    expect((await rowsOf("SELECT count(*) AS n FROM context_log"))[0]!.n).toBe(2);
  });

  it("answers what a batch reads back as the client would", async () => {
    const update = (ids: string) => `UPDATE learnings SET updated_at = updated_at WHERE id IN (${ids}) RETURNING id, content, seq, created_at AS at, NULL AS empty`;
    const direct = await clientOf(db).execute(update("'l1'"));
    const threaded = await asBookkeeping(() => clientOf(db).execute(update("'l1'")));
    expect(threaded.columns).toEqual(direct.columns);
    expect(threaded.rows).toEqual(direct.rows);
    expect(threaded.rows.map((r) => [Object.keys(r), r.length, r[0], r[2], r[4]])).toEqual(direct.rows.map((r) => [Object.keys(r), r.length, r[0], r[2], r[4]]));
    expect(threaded.rowsAffected).toBe(direct.rowsAffected);
    // The rate limiter's upsert reads each token's total back in its batch.
    const add = (count: number) => asBookkeeping(() => addWindowCounts(db, { counts: [{ tokenId: "t1", windowStart: 120_000, count }, { tokenId: "t2", windowStart: 120_000, count: 1 }], pruneBefore: 60_000 }));
    expect(await add(2)).toEqual([{ tokenId: "t1", windowStart: 120_000, count: 2 }, { tokenId: "t2", windowStart: 120_000, count: 1 }]);
    expect(await add(3)).toEqual([{ tokenId: "t1", windowStart: 120_000, count: 5 }, { tokenId: "t2", windowStart: 120_000, count: 2 }]);
  });

  it("waits for another connection's write lock off the event loop, and lands once it is released", async () => {
    const holder = sideClient(url);
    const lock = await holder.transaction("write");
    await lock.execute("UPDATE learnings SET updated_at = 1 WHERE id = 'l49'");
    let settled: string | null = null;
    const write = asBookkeeping(() => recordServedBatch(db, [served(day(5), ["l10", "l11"])])).then(
      () => (settled = "written"),
      (error: Error) => (settled = `failed: ${error.message}`),
    );
    // Written on the event loop, the write would hold this thread until the busy timeout and fail:
    // this timer could not fire first, and the write could never see the lock released.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBeNull();
    const readWhileLocked = await db.run("SELECT count(*) FROM learnings");
    expect(readWhileLocked.rows.length).toBe(1);
    await lock.commit();
    holder.close();
    await write;
    expect(settled).toBe("written");
    expect((await injectedDays()).filter(([id]) => id === "l10" || id === "l11")).toEqual([
      ["l10", day(5).getTime()],
      ["l11", day(5).getTime()],
    ]);
  });

  it("fails a batch the database refuses with the database's error, and writes nothing of it", async () => {
    const batch = ["UPDATE learnings SET last_injected_at = 1 WHERE id = 'l20'", "UPDATE no_such_table SET x = 1"];
    const direct = (await clientOf(db).batch(batch, "write").catch((e: unknown) => e)) as LibsqlError;
    const error = (await asBookkeeping(() => clientOf(db).batch(batch, "write")).catch((e: unknown) => e)) as LibsqlError;
    expect(error).toBeInstanceOf(LibsqlError);
    expect([error.code, error.message]).toEqual([direct.code, direct.message]);
    expect(error.message).toMatch(/no such table/);
    expect((await injectedDays()).some(([id]) => id === "l20")).toBe(false);
  });

  it("runs what is not bookkeeping on the client as before", async () => {
    await clientOf(db).execute("UPDATE learnings SET last_injected_at = 7 WHERE id = 'l30'");
    expect((await injectedDays()).find(([id]) => id === "l30")).toEqual(["l30", 7]);
  });

  it("is written on the client itself once the thread has failed", async () => {
    const plain = createClient({ url, timeout: 5000 });
    const client = withBookkeepingThread(plain, `${tmp.dir}/baton.db`, 5000, `file://${tmp.dir}/nowhere.js`);
    const logged = console.error;
    const said: unknown[] = [];
    console.error = (...args: unknown[]) => said.push(args[0]);
    try {
      const first = await asBookkeeping(() => client.execute("UPDATE learnings SET last_injected_at = 11 WHERE id = 'l31'")).catch((e: Error) => e);
      expect(first).toBeInstanceOf(Error);
      expect(said).toEqual([expect.stringMatching(/bookkeeping writer thread failed/)]);
      await asBookkeeping(() => client.execute("UPDATE learnings SET last_injected_at = 12 WHERE id = 'l32'"));
      expect((await injectedDays()).find(([id]) => id === "l32")).toEqual(["l32", 12]);
    } finally {
      console.error = logged;
      client.close();
    }
  });

  it("refuses bookkeeping once the client is closed", async () => {
    const other = openDatabase(url);
    other.client.close();
    const error = await asBookkeeping(() => other.client.execute("UPDATE learnings SET last_injected_at = 1 WHERE id = 'l40'")).catch((e: unknown) => e);
    expect((error as LibsqlError).code).toBe("CLIENT_CLOSED");
  });
});
