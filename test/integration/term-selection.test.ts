import { createClient, type Client, type InStatement } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { and, desc, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { readAll } from "@/lib/db/queries/batch-reads";
import { candidateColumns, rankable, searchRead, type LearningCandidateRow, type SearchParams, type TermSelection } from "@/lib/db/queries/context-candidates";
import { storeWordCounts } from "@/lib/db/queries/learning-counts";
import * as schema from "@/lib/db/schema";
import { FEEDBACK_TERMS, feedbackTerms, selectTerms, TERM_SELECTION } from "@/lib/context/hints/hint-query";
import { START_TAG_WEIGHT } from "@/lib/context/hints/tag-feedback";
import { ftsExpression } from "@/lib/learnings/fts-query";
import { personalAndProject, visibleTo, type Owner } from "@/lib/db/queries/scope";
import { ROOT, tempDir } from "../support/server";

/**
 * The plain search the statement under test must agree with: FTS5's matches of an expression, BM25
 * best first (newest first among equals), in the owner's scope, as one query of its own.
 */
async function plainSearch(db: Db, params: Owner & { match: string; limit: number; tagWeight: number }): Promise<LearningCandidateRow[]> {
  const { learnings } = schema;
  const best = sql`(SELECT rowid, bm25(learnings_fts, 1.0, ${params.tagWeight}) AS score FROM learnings_fts WHERE learnings_fts MATCH ${params.match}) AS best`;
  return db
    .select({ ...candidateColumns, score: sql<number>`best.score` })
    .from(best)
    .innerJoin(learnings, sql`${learnings.seq} = best.rowid`)
    .where(and(visibleTo(learnings, personalAndProject(params)), rankable(learnings)))
    .orderBy(sql`best.score`, desc(learnings.createdAt))
    .limit(params.limit);
}

/**
 * The hints' matches, searched again with the best matches' tags added to the hints' words
 * (feedbackTerms), or the first matches as they were when there are none to add. The two-step way
 * (count the words, choose in TypeScript, search again) that a context's batched reads
 * (lib/context/read/read-context.ts) replace; the test below checks that both find the same.
 */
async function withTagFeedback(
  db: Db,
  owner: Owner,
  search: { match: string; terms: string[]; limit: number },
  first: LearningCandidateRow[],
  selection: TermSelection = TERM_SELECTION,
): Promise<LearningCandidateRow[]> {
  const extra = feedbackTerms(first, search.terms);
  if (!extra.length) return first;
  const [frequencies, size] = await Promise.all([scopedCounts(owner, extra), scopeSize(owner)]);
  const added = ftsExpression(selectTerms(extra, frequencies, size, selection).slice(0, FEEDBACK_TERMS));
  if (!added) return first;
  return plainSearch(db, { ...owner, match: `${search.match} OR ${added}`, limit: search.limit, tagWeight: START_TAG_WEIGHT });
}

/**
 * A context searches its hint words in one statement (lib/db/queries/context-candidates.ts): the
 * words' document frequencies, which words to search for, and the search, in SQL. Here against the
 * two-step way it replaces (count each word, selectTerms in TypeScript, then search): the same
 * candidates in the same order with the same scores, on a real libSQL file, for random stores and hints.
 */

// Words drawn with a skew, so some are in most learnings and some in few; with an underscore and
// letters beyond ASCII, which the full-text index splits and folds its own way.
/** Ids in order, each run of scores equal to 1e-9 (a sum's rounding apart) in id order. */
function settled(rows: LearningCandidateRow[]): string[] {
  const runs: LearningCandidateRow[][] = [];
  for (const row of rows) {
    const run = runs.at(-1);
    if (run && Math.abs(run[0]!.score! - row.score!) < 1e-9) run.push(row);
    else runs.push([row]);
  }
  return runs.flatMap((run) => run.map((r) => r.id).sort());
}

/** How many learnings the store holds, counted. */
const storeSize = async () => Number((await client.execute("SELECT count(*) AS n FROM learnings")).rows[0]!.n);

/** What an owner's user may read, as SQL: their personal learnings, their projects' and the context's project's. */
const readable = (owner: Owner) => ({
  sql: "((project_id IS NULL AND user_id = ?) OR project_id IN (SELECT project_id FROM project_members WHERE user_id = ?) OR project_id = ?)",
  args: [owner.userId, owner.userId, owner.projectId],
});

/** How many learnings an owner's user may read that are not superseded, counted: what a search weighs its words' counts against. */
async function scopeSize(owner: Owner): Promise<number> {
  const r = readable(owner);
  return Number((await client.execute({ sql: `SELECT count(*) AS n FROM learnings WHERE ${r.sql} AND superseded_at IS NULL`, args: r.args })).rows[0]!.n);
}

/** In how many learnings an owner may read each word occurs, counted one by one. */
async function scopedCounts(owner: Owner, terms: string[]): Promise<Map<string, number>> {
  const r = readable(owner);
  const sqlOf = `SELECT count(*) AS n FROM learnings_fts JOIN learnings ON learnings.seq = learnings_fts.rowid WHERE learnings_fts MATCH ? AND ${r.sql}`;
  const counts = await Promise.all(terms.map(async (t) => Number((await client.execute({ sql: sqlOf, args: [`"${t}"`, ...r.args] })).rows[0]!.n)));
  return new Map(terms.map((t, i) => [t, counts[i]!]));
}

const VOCABULARY = "token refresh deploy ledger webhook cursor schema retry cache queue staging cron migrate invoice react hook pool lock vault canary café naïve snake_case x86 über".split(" ");
const USERS = ["u1", "u2"];

let client: Client;
let db: Db;
const tmp = tempDir("baton-term-selection-");

function pick(rand: () => number): string {
  return VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 2)]!;
}

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/terms.db` });
  await migrate(client, `${ROOT}/drizzle`);
  db = drizzle(client, { schema }) as unknown as Db;
  const stmts: InStatement[] = USERS.map((id) => ({ sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", args: [id, id, `${id}@example.com`] }));
  stmts.push({ sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', 'web', 'Web', 'u1', 0, 0)", args: [] });
  // u1 is in p1, u2 is not (and writes only personal learnings).
  stmts.push({ sql: "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES ('p1', 'u1', 'owner', 0)", args: [] });
  let s = 7;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  for (let i = 0; i < 400; i++) {
    const words = Array.from({ length: 3 + Math.floor(rand() * 8) }, () => pick(rand)).join(" ");
    const owner = rand() < 0.15 ? "u2" : "u1";
    const project = owner === "u1" && rand() < 0.6 ? "p1" : null;
    stmts.push({
      sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES (?, ?, ?, 'pattern', ?, 'test', 1, ?, ?, ?)",
      args: [`l${i}`, owner, project, words, JSON.stringify(rand() < 0.7 ? [pick(rand), pick(rand)] : []), 1000 + i, 1000 + i],
    });
  }
  await client.batch(stmts, "write");
});

afterAll(() => {
  client?.close();
  tmp.remove();
});

describe("the hint words' search in one statement", () => {
  // The last two put the cutoff (200) past maxMatches, as on a large store: 40 is under every word's
  // count in this store, 100 between the rarer words' and the commoner ones'.
  const selections: TermSelection[] = [TERM_SELECTION, { maxShare: 0.2, minCutoff: 10, maxMatches: 120 }, { maxShare: 0.5, minCutoff: 5, maxMatches: 40 }, { maxShare: 0.5, minCutoff: 5, maxMatches: 100 }];
  const hint = fc.uniqueArray(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom("absent", "nowhere")), { minLength: 1, maxLength: 8 });

  const version = async () => String((await client.execute("SELECT value FROM app_meta WHERE key = 'context_version'")).rows[0]!.value);
  const search = async (params: (SearchParams extends infer P ? (P extends unknown ? Omit<P, "tagWeight" | "limit" | "reader"> : never) : never) & { limit?: number }) =>
    (await readAll(db, { r: searchRead(db, { limit: 30, tagWeight: START_TAG_WEIGHT, reader: { userId: params.userId, projectIds: null }, ...params } as SearchParams) })).r;

  it("finds what counting each word, selectTerms and a search find, knowing some counts already or none", async () => {
    await fc.assert(
      fc.asyncProperty(hint, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), fc.constantFrom(...selections), fc.constantFrom(null, "p1"), fc.boolean(), async (terms, known, selection, projectId, stale) => {
        const owner = { userId: "u1", projectId };
        const frequencies = await scopedCounts(owner, terms);
        const total = await scopeSize(owner);
        const match = ftsExpression(selectTerms(terms, frequencies, total, selection));
        const expected = match ? await plainSearch(db, { ...owner, match, limit: 30, tagWeight: START_TAG_WEIGHT }) : [];
        // Known counts are taken only at the version they hold for: stale ones (here: wrong) are counted again.
        const given = terms.map((t, i): [string, number | null] => [t, known[i] ? (stale ? 999 : frequencies.get(t)!) : null]);
        const r = await search({ ...owner, terms: given, knownAt: stale ? "stale" : await version(), selection });
        expect(r.candidates).toEqual(expected);
        expect(r.chosen).toBe(match);
        // The counts it made: exact up to the cutoff, past which a word is not searched for at all. With
        // the cutoff past maxMatches and a word at most that common, a word more common than maxMatches
        // is counted no further (a lower bound, not told).
        const cutoff = Math.floor(Math.max(selection.minCutoff, total * selection.maxShare));
        const rarer = terms.some((t) => frequencies.get(t)! > 0 && frequencies.get(t)! <= selection.maxMatches);
        const stopped = (t: string) => cutoff > selection.maxMatches && rarer && frequencies.get(t)! > selection.maxMatches;
        const counted = Object.fromEntries(given.filter(([t, n]) => (n === null || stale) && !stopped(t)).map(([t]) => [t, Math.min(frequencies.get(t)!, cutoff + 1)]));
        expect(Object.fromEntries(r.counted)).toEqual(counted);
      }),
      { numRuns: 150, seed: 15 },
    );
  });

  it("adds the best matches' tags as withTagFeedback does: the feedback words searched alone with the hints' scores added rank as one search for both", async () => {
    await fc.assert(
      fc.asyncProperty(hint, fc.constantFrom(...selections), fc.constantFrom(null, "p1"), fc.constantFrom(5, 30, 1000), async (terms, selection, projectId, limit) => {
        const owner = { userId: "u1", projectId };
        const match = ftsExpression(selectTerms(terms, await scopedCounts(owner, terms), await scopeSize(owner), selection));
        const reference = match
          ? await withTagFeedback(db, owner, { match, terms, limit }, await plainSearch(db, { ...owner, match, limit, tagWeight: START_TAG_WEIGHT }), selection)
          : [];
        const first = await search({ ...owner, terms: terms.map((t) => [t, null]), knownAt: null, selection, limit, scores: true });
        const extra = first.chosen === null ? [] : feedbackTerms(first.candidates, terms);
        const scored = first.scores;
        const again = extra.length ? await search({ ...owner, terms: extra.map((t) => [t, null]), knownAt: null, maxTerms: FEEDBACK_TERMS, selection, limit, scored }) : null;
        const found = !again || again.chosen === null ? first.candidates : again.candidates;
        // The same order but among learnings whose scores are equal save for the order they were summed in.
        expect(settled(found)).toEqual(settled(reference));
        found.forEach((c, i) => expect(c.score).toBeCloseTo(reference[i]!.score!, 9));
      }),
      { numRuns: 200, seed: 16 },
    );
  });

  it("keeps the words whose matches add up to exactly the most allowed", async () => {
    const owner = { userId: "u1", projectId: "p1" };
    const frequencies = await scopedCounts(owner, VOCABULARY);
    const [a, b, c] = [...VOCABULARY].sort((x, y) => frequencies.get(x)! - frequencies.get(y)!).filter((t) => frequencies.get(t)! > 0);
    const selection = { maxShare: 1, minCutoff: 1000, maxMatches: frequencies.get(a!)! + frequencies.get(b!)! };
    const terms = [c!, b!, a!];
    expect(selectTerms(terms, frequencies, await scopeSize(owner), selection)).toEqual([b, a]);
    const match = ftsExpression([b!, a!])!;
    const r = await search({ userId: "u1", projectId: "p1", terms: terms.map((t) => [t, null]), knownAt: null, selection });
    expect(r.candidates).toEqual(await plainSearch(db, { userId: "u1", projectId: "p1", match, limit: 30, tagWeight: START_TAG_WEIGHT }));
  });

  it("counts words up to a cap where choosing stops caring: the prompt stage chooses what full counts choose", async () => {
    await fc.assert(
      fc.asyncProperty(hint, fc.constantFrom(...selections), async (terms, selection) => {
        const total = await storeSize();
        const full = await storeWordCounts(db, { terms });
        const capped = await storeWordCounts(db, { terms, cap: { share: selection.maxShare, least: selection.minCutoff } });
        const cutoff = Math.floor(Math.max(selection.minCutoff, total * selection.maxShare));
        expect(Object.fromEntries(capped)).toEqual(Object.fromEntries(terms.map((t) => [t, Math.min(full.get(t)!, cutoff + 1)])));
        expect(selectTerms(terms, capped, total, selection)).toEqual(selectTerms(terms, full, total, selection));
      }),
      { numRuns: 100, seed: 17 },
    );
  });

  it("counts an owner's words and learnings in what they may read alone, from the counts kept at write time", async () => {
    for (const owner of [{ userId: "u1", projectId: null }, { userId: "u1", projectId: "p1" }, { userId: "u2", projectId: "p1" }, { userId: "u2", projectId: null }]) {
      const r = await search({ ...owner, terms: VOCABULARY.map((t) => [t, null]), knownAt: null, selection: { maxShare: 1, minCutoff: 1000, maxMatches: 100_000 } });
      expect(r.size).toBe(await scopeSize(owner));
      expect(Object.fromEntries(r.counted)).toEqual(Object.fromEntries(await scopedCounts(owner, VOCABULARY)));
    }
    // u2's personal learnings are not u1's: they are counted for u2 alone.
    expect(await scopeSize({ userId: "u2", projectId: null })).toBeGreaterThan(0);
    expect(await scopeSize({ userId: "u1", projectId: "p1" })).toBeLessThan(await storeSize());
  });
});
