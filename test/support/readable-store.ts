import { createClient, type Client, type InStatement } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { readAll } from "@/lib/db/queries/batch-reads";
import { searchRead, type SearchParams, type Searched } from "@/lib/db/queries/context-candidates";
import { metaRead } from "@/lib/db/queries/context";
import * as schema from "@/lib/db/schema";
import { loadSearchIndex, searchIndexAt } from "@/lib/context/search/index-sync";
import { searchInMemory } from "@/lib/context/search/bm25-search";
import type { LearningIndex } from "@/lib/context/search/learning-index";
import { ROOT } from "./server";

/** What a test asks a search: SearchParams but the reader, who is the owner's user (all their projects). */
export type Asked = SearchParams extends infer P ? (P extends unknown ? Omit<P, "reader"> : never) : never;

const asReader = (params: Asked): SearchParams => ({ ...params, reader: { userId: params.userId, projectIds: null } }) as SearchParams;

/**
 * The oracle of the search in memory (lib/context/search): FTS5's statement (searchRead) on a copy of
 * the store holding only what the reader may read, so FTS5's statistics are what the reader may read.
 * Every user, project and membership is copied, and only the learnings that are the reader's personal
 * ones, their projects' (`members`: the memberships the test wrote) or the context's project's (pinned
 * and superseded ones too), with their seqs; a copy is made again once the store changed.
 */
export function readableStores(client: Client, db: Db, dir: string, members: Record<string, string[]>) {
  const copies = new Map<string, { at: number; db: Db; client: Client }>();
  const meta = async () => (await readAll(db, { m: metaRead(db) })).m;
  let made = 0;

  async function copyFor(owner: { userId: string; projectId: string | null }): Promise<Db> {
    const key = `${owner.userId} ${owner.projectId}`;
    const at = (await meta()).learningsChanged;
    const held = copies.get(key);
    if (held?.at === at) return held.db;
    held?.client.close();
    const copy = createClient({ url: `file:${dir}/readable-${made++}.db` });
    await migrate(copy, `${ROOT}/drizzle`);
    const rowsOf = async (sql: string, args: (string | null)[] = []) => (await client.execute({ sql, args })).rows;
    const inserts = (table: string, rows: Awaited<ReturnType<typeof rowsOf>>): InStatement[] =>
      rows.map((row) => ({ sql: `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map(() => "?").join(", ")})`, args: Object.values(row) as (string | number | null)[] }));
    const projects = [...(members[owner.userId] ?? []), ...(owner.projectId ? [owner.projectId] : [])];
    const readable = await rowsOf(`SELECT * FROM learnings WHERE (project_id IS NULL AND user_id = ?) OR project_id IN (${projects.map(() => "?").join(", ")})`, [owner.userId, ...projects]);
    const [users, allProjects, memberships] = [await rowsOf("SELECT * FROM users"), await rowsOf("SELECT * FROM projects"), await rowsOf("SELECT * FROM project_members")];
    await copy.batch([...inserts("users", users), ...inserts("projects", allProjects), ...inserts("project_members", memberships), ...inserts("learnings", readable)], "write");
    const copyDb = drizzle(copy, { schema }) as unknown as Db;
    copies.set(key, { at, db: copyDb, client: copy });
    return copyDb;
  }

  return {
    meta,
    /** The statement's answer on the store as the reader may read it. */
    bySql: async (params: Asked): Promise<Searched> => {
      const copy = await copyFor(params);
      return (await readAll(copy, { r: searchRead(copy, asReader(params)) })).r;
    },
    /** The search in memory, for the owner's user as reader (their projects: `members`). */
    inMemory: (index: LearningIndex, params: Asked): Searched => searchInMemory(index, asReader(params), members[params.userId] ?? []),
    /** The index as a context uses it: current with the change its reads saw. */
    current: async (): Promise<{ index: LearningIndex }> => {
      const m = await meta();
      await loadSearchIndex(db);
      return { index: (await searchIndexAt(db, m.learningsChanged))! };
    },
    close: () => {
      for (const { client: copy } of copies.values()) copy.close();
    },
  };
}

/** Same candidates, same order, same scores (to the last digits a JSON round trip of the hints' scores keeps), same words chosen. */
export function expectSame(memory: Searched, statement: Searched): void {
  expect(memory.chosen).toBe(statement.chosen);
  // Learnings whose scores are equal but for the rounding of a sum (the hints' scores a statement hands
  // on as JSON keep 15 digits) may come in either order: compared in a run of such scores by id.
  expect(settled(memory.candidates)).toEqual(settled(statement.candidates));
  const byId = new Map(statement.candidates.map((c) => [c.id, c]));
  for (const { score, ...row } of memory.candidates) {
    const { score: expected, ...sqlRow } = byId.get(row.id)!;
    expect(row).toEqual(sqlRow);
    expect(score).toBeCloseTo(expected!, 12);
  }
}

/** Ids in order, each run of scores equal to 1e-12 in id order. */
function settled(rows: Searched["candidates"]): string[] {
  const runs: Searched["candidates"][] = [];
  for (const row of rows) {
    const run = runs.at(-1);
    if (run && Math.abs(run[0]!.score! - row.score!) < 1e-12) run.push(row);
    else runs.push([row]);
  }
  return runs.flatMap((run) => run.map((r) => r.id).sort());
}
