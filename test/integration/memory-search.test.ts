import { createClient, type Client, type InStatement } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { readAll } from "@/lib/db/queries/batch-reads";
import { FTS_WINDOW, type TermSelection } from "@/lib/db/queries/context-candidates";
import { metaRead } from "@/lib/db/queries/context";
import * as schema from "@/lib/db/schema";
import { FEEDBACK_TERMS, feedbackTerms, TERM_SELECTION } from "@/lib/context/hints/hint-query";
import { START_TAG_WEIGHT } from "@/lib/context/hints/tag-feedback";
import { CATCH_UP_INLINE, indexAt, indexChangesRead, loadSearchIndex } from "@/lib/context/search/index-sync";
import { LearningIndex } from "@/lib/context/search/learning-index";
import { indexedLearningsRead } from "@/lib/db/queries/learning-index-reads";
import { ROOT, tempDir } from "../support/server";
import { expectSame, readableStores, type Asked } from "../support/readable-store";

/**
 * The learnings' index in memory (lib/context/search) against the FTS5 statement it stands in for
 * (searchRead) on a store holding only what the reader may read (their personal learnings and the
 * project's): the same words chosen, the same candidates in the same order, the same BM25 scores, on
 * real libSQL files, for random stores and hints. So what anyone else wrote moves nothing in memory. Kept
 * current by the learning_changes log through inserts, edits, supersedes, pins, deletes and a writer's
 * new name.
 */

// Words drawn with a skew, so some are in most learnings and some in few; stemmed alike (deploy,
// deploying, deployed), split by the tokenizer (snake_case), folded (café, naïve, über).
const VOCABULARY =
  "token tokens refresh refreshing deploy deploying deployed ledger webhook webhooks cursor schema retry retries cache caching queue staging cron migrate migration invoice react hook pool lock vault canary café naïve snake_case x86 über".split(
    " ",
  );
const USERS = ["u1", "u2", "u3"];

let client: Client;
let db: Db;
const tmp = tempDir("baton-memory-search-");
let s = 11;
const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const pick = () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 2)]!;
const text = (min: number, spread: number) => Array.from({ length: min + Math.floor(rand() * spread) }, pick).join(rand() < 0.5 ? " " : ", ");
let next = 0;

function learningInsert(): InStatement {
  const i = next++;
  const owner = USERS[Math.floor(rand() * USERS.length)]!;
  const project = owner !== "u3" && rand() < 0.6 ? "p1" : null;
  return {
    sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, pinned, superseded_at, created_at, updated_at) VALUES (?, ?, ?, 'pattern', ?, 'test', ?, ?, ?, ?, ?, ?)",
    args: [`l${i}`, owner, project, text(2, 12), rand() < 0.7 ? 1 : 0, rand() < 0.6 ? text(1, 3) : "", rand() < 0.05 ? 1 : 0, rand() < 0.05 ? 5 : null, 1000 + Math.floor(i / 3), 1000 + i],
  };
}

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/memory.db` });
  await migrate(client, `${ROOT}/drizzle`);
  db = drizzle(client, { schema }) as unknown as Db;
  store = readableStores(client, db, tmp.dir, MEMBERS);
  const stmts: InStatement[] = USERS.map((id) => ({ sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", args: [id, id, `${id}@example.com`] }));
  stmts.push({ sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', 'web', 'Web', 'u1', 0, 0)", args: [] });
  for (const [user, projects] of Object.entries(MEMBERS)) for (const p of projects) stmts.push({ sql: "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES (?, ?, 'member', 0)", args: [p, user] });
  for (let i = 0; i < 500; i++) stmts.push(learningInsert());
  await client.batch(stmts, "write");
});

afterAll(() => {
  store?.close();
  client?.close();
  tmp.remove();
});

/** Learnings written with an id, owner, project and content of a test's own (confirmed, no tags, created at 3). */
const insert = (rows: [id: string, owner: string, project: string | null, content: string][]) =>
  client.batch(rows.map(([id, owner, project, content]) => ({ sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES (?, ?, ?, 'pattern', ?, 'test', 1, '', 3, 3)", args: [id, owner, project, content] })), "write");
let store: ReturnType<typeof readableStores>;
const meta = () => store.meta();
const bySql = (params: Asked) => store.bySql(params);
const current = () => store.current();
const inMemory = (index: LearningIndex, params: Asked) => store.inMemory(index, params);
/** Who is a member of which project (u3 of none: p1's learnings u3 writes are not u3's to read). */
const MEMBERS = { u1: ["p1"], u2: ["p1"] };

const selections: TermSelection[] = [TERM_SELECTION, { maxShare: 0.2, minCutoff: 10, maxMatches: 120 }, { maxShare: 0.5, minCutoff: 5, maxMatches: 40 }];
const hint = fc.uniqueArray(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom("absent", "nowhere", "deploys", "caches")), { minLength: 1, maxLength: 8 });
const owners = fc.constantFrom({ userId: "u1", projectId: null }, { userId: "u1", projectId: "p1" }, { userId: "u2", projectId: "p1" }, { userId: "u3", projectId: null });

describe("the learnings' search in memory", () => {
  it("chooses the words, finds and scores the candidates as the FTS5 statement does", async () => {
    const { index } = await current();
    await fc.assert(
      fc.asyncProperty(hint, fc.constantFrom(...selections), owners, fc.constantFrom(5, 30, 1000), fc.constantFrom(START_TAG_WEIGHT, 0.5, 0.3, 0), async (terms, selection, owner, limit, tagWeight) => {
        const params: Asked = { ...owner, limit, tagWeight, terms: terms.map((t) => [t, null]), knownAt: null, selection, scores: true };
        const [memory, statement] = [inMemory(index, params), await bySql(params)];
        expectSame(memory, statement);
        // Every word the statement counted exactly, counted the same, against the same size.
        expect(memory.size).toBe(statement.size);
        for (const [term, n] of statement.counted) if (n <= Math.max(selection.minCutoff, statement.size * selection.maxShare)) expect(memory.counted.get(term)).toBe(n);
        // The scores of every match (the hints' search hands them to the feedback's).
        const pairs = JSON.parse(statement.scores as string) as [number, number][];
        const scores = new Map(memory.scores as Iterable<[number, number]>);
        expect(scores.size).toBe(pairs.length);
        expect(new Set(scores.keys())).toEqual(new Set(pairs.map(([seq]) => seq)));
        for (const [seq, score] of pairs) expect(scores.get(seq)).toBeCloseTo(score, 12);
      }),
      { numRuns: 200, seed: 25 },
    );
  });

  it("adds the feedback's words to the hints' scores as the statement does, and searches an expression chosen already", async () => {
    const { index } = await current();
    await fc.assert(
      fc.asyncProperty(hint, owners, fc.constantFrom(5, 30), async (terms, owner, limit) => {
        const first: Asked = { ...owner, limit, tagWeight: START_TAG_WEIGHT, terms: terms.map((t) => [t, null]), knownAt: null, selection: TERM_SELECTION, scores: true };
        const [memory, statement] = [inMemory(index, first), await bySql(first)];
        if (statement.chosen === null) return;
        const again = inMemory(index, { ...owner, limit, tagWeight: START_TAG_WEIGHT, match: statement.chosen });
        expectSame(again, await bySql({ ...owner, limit, tagWeight: START_TAG_WEIGHT, match: statement.chosen }));
        const extra = feedbackTerms(statement.candidates, terms);
        if (!extra.length) return;
        const feedback = { ...owner, limit, tagWeight: START_TAG_WEIGHT, terms: extra.map((t): [string, null] => [t, null]), knownAt: null, maxTerms: FEEDBACK_TERMS, selection: TERM_SELECTION };
        const bySlot = inMemory(index, { ...feedback, scored: memory.scores });
        expectSame(bySlot, await bySql({ ...feedback, scored: statement.scores }));
        // The same scores as a statement answers them (by seq, JSON) add up the same.
        expectSame(inMemory(index, { ...feedback, scored: statement.scores }), bySlot);
      }),
      { numRuns: 150, seed: 26 },
    );
  });

  it("follows every change to the learnings, from this process or another, and a writer's new name", async () => {
    // Learnings whose scope the writes below change, each with a word of its own, held by the index first.
    const scoped = { given: ["u1", null, "quokka"], superseded: ["u1", "p1", "narwhal"], pinned: ["u2", null, "axolotl"], personal: ["u1", "p1", "pangolin"], joined: ["u3", null, "okapi"] } as const;
    await insert(Object.entries(scoped).map(([id, [owner, project, word]]) => [`scope-${id}`, owner, project, `${word} ledger`]));
    await current();
    const writes: InStatement[] = [];
    for (let i = 0; i < 40; i++) writes.push(learningInsert());
    writes.push(
      { sql: "UPDATE learnings SET content = 'ledger ledger canary rewritten' WHERE id = 'l3'", args: [] },
      { sql: "UPDATE learnings SET tags = 'vault lock' WHERE id = 'l4'", args: [] },
      { sql: "UPDATE learnings SET superseded_at = 9 WHERE id = 'l5'", args: [] },
      { sql: "UPDATE learnings SET pinned = 1 WHERE id = 'l6'", args: [] },
      { sql: "UPDATE learnings SET project_id = NULL WHERE id = 'l7'", args: [] },
      { sql: "UPDATE learnings SET confirmed = 1 - confirmed WHERE id = 'l8'", args: [] },
      { sql: "DELETE FROM learnings WHERE id IN ('l9', 'l10', 'l11')", args: [] },
      { sql: "UPDATE learnings SET kind = 'insight', created_at = 5 WHERE id = 'l13'", args: [] },
      { sql: "UPDATE learnings SET user_id = 'u2' WHERE id = 'l14'", args: [] },
      { sql: "UPDATE users SET name = 'Ursula' WHERE id = 'u1'", args: [] },
      // Deleted with their owner (the foreign keys cascade): a user, a project.
      { sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u9', 'u9', 'u9@example.com', 0, 0)", args: [] },
      { sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p9', 'gone', 'Gone', 'u1', 0, 0)", args: [] },
      { sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, tags, created_at, updated_at) VALUES ('g1', 'u9', 'p1', 'pattern', 'ledger canary vault', 'test', '', 1, 1), ('g2', 'u1', 'p9', 'pattern', 'ledger canary vault', 'test', '', 1, 1)", args: [] },
      { sql: "DELETE FROM users WHERE id = 'u9'", args: [] },
      { sql: "DELETE FROM projects WHERE id = 'p9'", args: [] },
      { sql: "UPDATE learnings SET user_id = 'u2' WHERE id = 'scope-given'", args: [] },
      { sql: "UPDATE learnings SET superseded_at = 9 WHERE id = 'scope-superseded'", args: [] },
      { sql: "UPDATE learnings SET pinned = 1 WHERE id = 'scope-pinned'", args: [] },
      { sql: "UPDATE learnings SET project_id = NULL WHERE id = 'scope-personal'", args: [] },
      { sql: "UPDATE learnings SET project_id = 'p1' WHERE id = 'scope-joined'", args: [] },
    );
    // Another process's writes: through a client of its own, not this one.
    const other = createClient({ url: `file:${tmp.dir}/memory.db` });
    await other.batch(writes, "write");
    other.close();
    const { index } = await current();
    expect(index.changed).toBe((await meta()).learningsChanged);
    // What the changes made of it is what a load of the store makes.
    const loaded = new LearningIndex();
    for (const l of (await readAll(db, { all: indexedLearningsRead(db, 0, 1_000_000) })).all) loaded.put(l);
    expect(index.size).toBe(loaded.size);
    expect(index.totalTokens).toBe(loaded.totalTokens);
    // Each scope's statistics, kept through the changes, as a load counts them.
    const statsOf = (i: LearningIndex, userId: string, projectId: string | null) => i.readableStats(i.keyOf(userId), new Set(projectId === null ? [] : [i.keyOf(projectId)!]));
    for (const userId of USERS) for (const projectId of ["p1", null]) expect(statsOf(index, userId, projectId)).toEqual(statsOf(loaded, userId, projectId));
    // What the start counts the lines of first (lib/startup.ts): the newest held, newest first.
    const seqs = (await client.execute("SELECT seq FROM learnings ORDER BY seq DESC LIMIT 3")).rows.map((r) => Number(r.seq));
    expect(index.newest(3).map((l) => l.seq)).toEqual(seqs);
    expect(index.newest(1_000_000)).toHaveLength(index.size);
    // (but the generation each index numbered its learnings with)
    const fields = (l: unknown) => Object.fromEntries(Object.entries(l as object).filter(([k]) => k !== "gen"));
    for (const l of (await readAll(db, { all: indexedLearningsRead(db, 0, 1_000_000) })).all) expect(fields(index.get(l.seq))).toEqual(fields(loaded.get(l.seq)));
    expect(index.get(Number((await client.execute("SELECT seq FROM learnings WHERE id = 'l13'")).rows[0]!.seq))).toMatchObject({ kind: "insight", createdMs: 5 });
    await fc.assert(
      fc.asyncProperty(hint, owners, async (terms, owner) => {
        const params: Asked = { ...owner, limit: 1000, tagWeight: START_TAG_WEIGHT, terms: terms.map((t) => [t, null]), knownAt: null, selection: TERM_SELECTION };
        expectSame(inMemory(index, params), await bySql(params));
      }),
      { numRuns: 100, seed: 27 },
    );
    // Each learning whose scope changed (given to another owner, superseded, pinned, made personal, moved
    // into a project) searched for by its own word, as each user in each scope: found where the statement
    // finds it, and only there.
    const seen = new Set<string>();
    for (const [id, [, , word]] of Object.entries(scoped))
      for (const [userId, projectId] of USERS.flatMap((u) => [[u, "p1"] as const, [u, null] as const])) {
        const params: Asked = { userId, projectId, limit: 1000, tagWeight: START_TAG_WEIGHT, match: `"${word}"` };
        const memory = inMemory(index, params);
        expectSame(memory, await bySql(params));
        if (memory.candidates.length) seen.add(`${id} ${userId} ${projectId}`);
      }
    // Where each is now: the given one its new owner's alone, the superseded and the pinned nobody's to rank.
    expect([...seen].sort()).toEqual(["given u2 null", "given u2 p1", "joined u1 p1", "joined u2 p1", "joined u3 p1", "personal u1 null", "personal u1 p1"]);
    const rows = (await client.execute("SELECT count(*) AS n, sum(length(content)) AS c FROM learnings")).rows[0]!;
    expect(index.size).toBe(Number(rows.n));
    const renamed = inMemory(index, { userId: "u1", projectId: "p1", limit: 1000, tagWeight: 1, match: '"ledger"' });
    expect(renamed.candidates.filter((c) => c.userId === "u1").every((c) => c.author === "Ursula")).toBe(true);
    expect(renamed.candidates.some((c) => c.userId === "u1")).toBe(true);
  });

  it("catches up in the background when a context's batch cannot bring it up to date, and loads again once the log lost what it lacks", { timeout: 60_000 }, async () => {
    const index = (await loadSearchIndex(db))!;
    const read = async () => {
      const after = index.changed;
      const r = await readAll(db, { meta: metaRead(db), changes: indexChangesRead(db, index) });
      return { after, ...r };
    };
    // More changes than a context waits for: the batch's read cannot bring the index there.
    const other = createClient({ url: `file:${tmp.dir}/memory.db` });
    await other.batch(Array.from({ length: CATCH_UP_INLINE + 5 }, learningInsert), "write");
    let r = await read();
    expect(indexAt(db, r.after, r.changes, r.meta.learningsChanged)).toBeNull();
    // ...so the context searched with a statement; the index catches up meanwhile, and then answers.
    await expect.poll(async () => indexAt(db, index.changed, [], (await meta()).learningsChanged), { timeout: 10_000 }).not.toBeNull();
    // A few changes: applied from the batch's read, no statement of their own.
    await other.batch([learningInsert(), { sql: "DELETE FROM learnings WHERE id = 'l12'", args: [] }], "write");
    r = await read();
    expect(r.changes.length).toBe(2);
    expect(indexAt(db, r.after, r.changes, r.meta.learningsChanged)).toBe(index);
    // The log pruned past what the index applied (a long outage, a bulk import): it loads everything again.
    await other.batch([learningInsert(), learningInsert(), { sql: "DELETE FROM learning_changes WHERE id < (SELECT max(id) FROM learning_changes)", args: [] }], "write");
    other.close();
    r = await read();
    expect(indexAt(db, r.after, r.changes, r.meta.learningsChanged)).toBeNull();
    await expect.poll(async () => (await loadSearchIndex(db))!.changed, { timeout: 10_000 }).toBe(r.meta.learningsChanged);
    const { index: reloaded } = await current();
    expect(reloaded.size).toBe(Number((await client.execute("SELECT count(*) AS n FROM learnings")).rows[0]!.n));
    const params: Asked = { userId: "u1", projectId: "p1", limit: 1000, tagWeight: START_TAG_WEIGHT, terms: VOCABULARY.slice(0, 6).map((t) => [t, null]), knownAt: null, selection: TERM_SELECTION };
    expectSame(inMemory(reloaded, params), await bySql(params));
  });

  it("adds the hints' scores by seq once a change has given one of their learnings' slots to another", async () => {
    const { index } = await current();
    const owner = { userId: "u1", projectId: "p1" };
    const hints = inMemory(index, { ...owner, limit: 1000, tagWeight: START_TAG_WEIGHT, match: '"ledger"', scores: true });
    const asStatement = JSON.stringify([...hints.scores]);
    const gone = hints.candidates[0]!;
    const slot = index.slot(gone.seq);
    // The hints' best match deleted and a learning the hints do not match written: it takes the freed slot.
    await client.execute({ sql: "DELETE FROM learnings WHERE id = ?", args: [gone.id] });
    await insert([["in-its-slot", "u1", "p1", "canary nothing else"]]);
    const after = await current();
    expect(after.index).toBe(index);
    expect(index.slot(Number((await client.execute("SELECT seq FROM learnings WHERE id = 'in-its-slot'")).rows[0]!.seq))).toBe(slot);
    expect(JSON.stringify([...hints.scores])).toBe(asStatement);
    const feedback: Asked = { ...owner, limit: 1000, tagWeight: START_TAG_WEIGHT, match: '"canary"', scored: hints.scores };
    const memory = inMemory(index, feedback);
    expectSame(memory, await bySql({ ...feedback, scored: asStatement }));
    // Scored for "canary" alone, not with the deleted learning's score for "ledger".
    const own = inMemory(index, { ...feedback, scored: "[]" }).candidates.find((c) => c.id === "in-its-slot")!;
    expect(memory.candidates.find((c) => c.id === "in-its-slot")!.score).toBe(own.score);
  });

  it("keeps FTS5's window of the best matches the reader may rank, cut among equal scores where FTS5 cuts, whatever others match", async () => {
    // More of u1's learnings than the window with the same words, so the same score: which stay is the
    // tie-break's doing alone. u3's match too, and take no place in u1's window.
    const tied = FTS_WINDOW + 150;
    await insert(Array.from({ length: tied }, (_, i) => [`tied-${i}`, i % 10 ? "u1" : "u3", null, "wombat"]));
    await insert(Array.from({ length: tied }, (_, i) => [`tied-more-${i}`, "u1", null, "wombat"]));
    const { index } = await current();
    const hints: Asked = { userId: "u1", projectId: null, limit: 1000, tagWeight: START_TAG_WEIGHT, match: '"wombat"', scores: true };
    const [memory, statement] = [inMemory(index, hints), await bySql(hints)];
    expectSame(memory, statement);
    const window = (scores: Iterable<readonly [number, number]>) => [...scores].map(([seq]) => seq).sort((a, b) => a - b);
    expect(window(memory.scores as Iterable<[number, number]>)).toEqual(window(JSON.parse(statement.scores as string) as [number, number][]));
    expect(window(memory.scores as Iterable<[number, number]>).length).toBe(FTS_WINDOW);
    const u3 = new Set((await client.execute("SELECT seq FROM learnings WHERE user_id = 'u3'")).rows.map((r) => Number(r.seq)));
    expect(window(memory.scores as Iterable<[number, number]>).some((seq) => u3.has(seq))).toBe(false);
    expect(memory.candidates).toHaveLength(1000);
    expect(memory.candidates.every((c) => c.userId === "u1")).toBe(true);
    const feedback: Asked = { userId: "u1", projectId: null, limit: 1000, tagWeight: START_TAG_WEIGHT, match: '"wombat" OR "ledger"' };
    expectSame(inMemory(index, { ...feedback, scored: memory.scores }), await bySql({ ...feedback, scored: statement.scores }));
  });

  it("scores a learning the words match in its tags alone once, at a tags weight of 0, as the statement does", async () => {
    await client.execute({
      sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES ('tags-only', 'u1', 'p1', 'pattern', 'nothing searched for here', 'test', 1, 'zeta omega', 7, 7)",
      args: [],
    });
    const { index } = await current();
    const params: Asked = { userId: "u1", projectId: "p1", limit: 10, tagWeight: 0, match: '"zeta" OR "omega"', scores: true };
    const memory = inMemory(index, params);
    expect(memory.candidates.map((c) => c.id)).toEqual(["tags-only"]);
    expectSame(memory, await bySql(params));
  });
});
