/**
 * The learnings' search index in memory (lib/context/search) against the FTS5 statement it stands in
 * for (searchRead), outside the server: on the context-speed bench's store (bench/seed-store.ts,
 * Zipf-spread words), how long the index takes to load and how much heap it holds, then the hints'
 * search of `--queries` hook-like sessions (bench/context-speed/hook-query.ts: new words each) run
 * both ways, alternated `--rounds` times: ms a search (CPU on this process), candidates found, and
 * whether both answered the same candidates in the same order.
 *
 *   npx tsx --conditions react-server bench/search-index.ts [--sizes 10000,100000] [--queries 300] [--rounds 2]
 */
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { parseArgs } from "node:util";
import type { Db } from "../lib/db/client";
import { readAll } from "../lib/db/queries/batch-reads";
import { searchRead, type SearchParams, type Searched } from "../lib/db/queries/context-candidates";
import * as schema from "../lib/db/schema";
import { hintsOf, TERM_SELECTION } from "../lib/context/hints/hint-query";
import { START_TAG_WEIGHT } from "../lib/context/hints/tag-feedback";
import { searchInMemory } from "../lib/context/search/bm25-search";
import { loadSearchIndex } from "../lib/context/search/index-sync";
import { hookQueries } from "./context-speed/hook-query";
import { seededStore } from "./context-speed/stores";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "10000,100000" }, queries: { type: "string", default: "300" }, rounds: { type: "string", default: "2" } } });

async function measure(size: number): Promise<void> {
  const store = await seededStore("embedded", size);
  const client = createClient({ url: store.databaseUrl });
  try {
    const db = drizzle(client, { schema }) as unknown as Db;
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const loadStart = performance.now();
    const index = (await loadSearchIndex(db))!;
    const loadMs = performance.now() - loadStart;
    global.gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    const userId = String((await client.execute("SELECT id FROM users LIMIT 1")).rows[0]!.id);
    const readable = (await client.execute({ sql: "SELECT project_id FROM project_members WHERE user_id = ?", args: [userId] })).rows.map((r) => String(r.project_id));
    const next = hookQueries(size);
    const searches: SearchParams[] = Array.from({ length: Number(values.queries) }, () => {
      const p = new URLSearchParams(next().split("?")[1]);
      const terms = hintsOf({ q: p.get("q")!, branch: p.get("branch")!, cwd: p.get("cwd")! }, null).terms;
      return { userId, projectId: "p-web", reader: { userId, projectIds: null }, limit: 134, tagWeight: START_TAG_WEIGHT, terms: terms.map((t): [string, null] => [t, null]), knownAt: null, selection: TERM_SELECTION, scores: true };
    });
    const times = { memory: [] as number[], statement: [] as number[] };
    let same = 0;
    let found = 0;
    for (let round = 0; round < Number(values.rounds); round++) {
      let started = performance.now();
      const inMemory = searches.map((s) => searchInMemory(index, s, readable));
      times.memory.push((performance.now() - started) / searches.length);
      started = performance.now();
      const bySql: Searched[] = [];
      for (const s of searches) bySql.push((await readAll(db, { r: searchRead(db, s) })).r);
      times.statement.push((performance.now() - started) / searches.length);
      same = inMemory.filter((r, i) => r.candidates.map((c) => c.id).join() === bySql[i]!.candidates.map((c) => c.id).join()).length;
      found = inMemory.reduce((n, r) => n + r.candidates.length, 0) / searches.length;
    }
    const best = (xs: number[]) => Math.min(...xs).toFixed(3);
    console.log(
      `${String(size).padStart(7)} | load ${(loadMs / 1000).toFixed(2)} s, heap ${heapMb.toFixed(0)} MB | memory ${best(times.memory)} ms  statement ${best(times.statement)} ms  (${(Math.min(...times.statement) / Math.min(...times.memory)).toFixed(1)}x) | ${found.toFixed(0)} candidates a search | same candidates, same order: ${same}/${searches.length}`,
    );
  } finally {
    client.close();
    await store.stop();
  }
}

console.log("learnings | the index: load, heap held | a hints' search, best round: in memory, as a statement | found | agreement");
for (const size of values.sizes.split(",").map(Number)) await measure(size);
