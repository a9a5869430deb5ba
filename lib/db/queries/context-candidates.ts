import { desc, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { learningCounts, learnings, type LearningKind } from "../schema";
import { read } from "./batch-reads";
import { ofProject, personalAndProject, personalOf, visibleTo, type Owner } from "./scope";

/**
 * Candidates for a context: FTS matches of the hints, best BM25 first; or, without hints, the newest
 * of the user's personal learnings and the project's, confirmed first.
 *
 * Both shapes are written to stay fast on a large store. FTS5 ranks inside its own index first (the
 * inner query: only the best FTS_WINDOW matches of everyone's learnings leave it), and the scope is
 * applied to those; "newest" reads the two scopes separately, each along its (owner, created_at) index.
 */
const FTS_WINDOW = 2000;

/** What a context needs of a learning, and no more: it reads hundreds of these per request. */
export type LearningCandidateRow = {
  id: string;
  seq: number;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  createdAt: Date;
  score?: number;
};

const candidateColumns = {
  id: learnings.id,
  seq: learnings.seq,
  kind: learnings.kind,
  content: learnings.content,
  confirmed: learnings.confirmed,
  createdAt: learnings.createdAt,
};

export async function contextLearnings(db: DbOrTx, params: Owner & { match: string | null; limit: number }): Promise<LearningCandidateRow[]> {
  if (params.match) return matchesQuery(db, { ...params, match: params.match });
  const [personal, project] = await Promise.all([newest(db, personalOf(learnings, params.userId), params.limit), params.projectId ? newest(db, ofProject(learnings, params.projectId), params.limit) : []]);
  return newestOfBoth(personal, project, params.limit);
}

function matchesQuery(db: DbOrTx, params: Owner & { match: string; limit: number }) {
  // bm25() spelled out rather than FTS5's configured `rank`: measured faster (99 ms vs 166 ms at 78k matches).
  const best = sql`(SELECT rowid, bm25(learnings_fts, 1.0, 0.5) AS score FROM learnings_fts WHERE learnings_fts MATCH ${params.match} ORDER BY score LIMIT ${FTS_WINDOW}) AS best`;
  return db
    .select({ ...candidateColumns, score: sql<number>`best.score` })
    .from(best)
    .innerJoin(learnings, sql`${learnings.seq} = best.rowid`)
    .where(visibleTo(learnings, personalAndProject(params)))
    .orderBy(sql`best.score`, desc(learnings.createdAt))
    .limit(params.limit);
}

/** The FTS matches of an expression already chosen, as a batch item answering like rankedCandidatesRead. */
export function matchesRead(db: Db, params: Owner & { match: string; limit: number }) {
  return read(matchesQuery(db, params), (candidates) => ({ candidates: candidates as LearningCandidateRow[], counted: new Map<string, number>() }));
}

function newest(db: DbOrTx, where: SQL, limit: number) {
  return db.select(candidateColumns).from(learnings).where(where).orderBy(desc(learnings.createdAt), desc(learnings.seq)).limit(limit);
}

/** The newest of the personal and the project's together, confirmed first. */
export function newestOfBoth(personal: LearningCandidateRow[], project: LearningCandidateRow[], limit: number): LearningCandidateRow[] {
  return [...personal, ...project]
    .sort((a, b) => Number(b.confirmed) - Number(a.confirmed) || b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq)
    .slice(0, limit);
}

/** The newest learnings of each scope a context draws on, as batch items (newestOfBoth merges them). */
export function recentReads(db: Db, params: Owner & { limit: number }) {
  return {
    personal: read(newest(db, personalOf(learnings, params.userId), params.limit)),
    project: params.projectId ? read(newest(db, ofProject(learnings, params.projectId), params.limit)) : undefined,
  };
}

/** A hint word and the number of learnings it occurs in, when known already (null: the query counts). */
export type HintTerm = [term: string, documentFrequency: number | null];
/** How the words to search for are chosen: lib/context/hint-query.ts's selectTerms, in SQL. */
export type TermSelection = { maxShare: number; minCutoff: number; maxMatches: number };

type CandidateResultRow = { what: number; id: string; seq: number; kind: LearningKind; content: string; confirmed: number; created_at: number; score: number };

/**
 * The FTS candidates of hint words in one statement, so a context needs no round trip between counting
 * words and searching: how many learnings each word occurs in (counted only up to the cutoff past
 * which a word is too common to search for; given when already known), which words to search for
 * (selectTerms' rule, in SQL: test/integration/term-selection.test.ts checks they agree), then the
 * best matches by BM25 in the owner's scope. Answers the candidates and the counts it made.
 */
export function rankedCandidatesRead(db: Db, params: Owner & { terms: HintTerm[]; limit: number; selection: TermSelection }) {
  const { maxShare, minCutoff, maxMatches } = params.selection;
  const scope = visibleTo(learnings, personalAndProject(params));
  const query = sql`select * from (
    with terms(i, term, known) as (select key, value ->> 0, value ->> 1 from json_each(${JSON.stringify(params.terms)})),
    cut(c) as (select max(${minCutoff}, coalesce(sum(${learningCounts.n}), 0) * ${maxShare}) from ${learningCounts}),
    df as materialized (
      select i, term, known is null as fresh, coalesce(known, (select count(*) from (
        select 1 from learnings_fts where learnings_fts match '"' || term || '"' limit (select cast(c as integer) + 1 from cut)))) as n
      from terms),
    usable as (
      select i, term, sum(n) over (order by n, i rows unbounded preceding) as cum, row_number() over (order by n, i) as r
      from df where n > 0 and n <= (select c from cut)),
    expr(q) as (select group_concat(phrase, ' OR ') from (
      select '"' || term || '"' as phrase from usable where r = 1 or cum <= ${maxMatches} order by i)),
    best as (
      select rowid, bm25(learnings_fts, 1.0, 0.5) as score from learnings_fts
      where learnings_fts match (select coalesce(q, '""') from expr) order by score limit ${FTS_WINDOW})
    select * from (
      select 0 as what, ${learnings.id} as id, ${learnings.seq} as seq, ${learnings.kind} as kind, ${learnings.content} as content,
        ${learnings.confirmed} as confirmed, ${learnings.createdAt} as created_at, best.score as score
      from best join ${learnings} on ${learnings.seq} = best.rowid where ${scope} order by best.score, ${learnings.createdAt} desc limit ${params.limit})
    union all select 1, term, null, null, null, null, null, n from df where fresh)`;
  return read(db.all<CandidateResultRow>(query), (rows) => ({
    candidates: rows
      .filter((r) => r.what === 0)
      .map((r): LearningCandidateRow => ({
        id: r.id,
        seq: Number(r.seq),
        kind: r.kind,
        content: r.content,
        confirmed: Boolean(Number(r.confirmed)),
        createdAt: new Date(Number(r.created_at)),
        score: Number(r.score),
      })),
    counted: new Map(rows.filter((r) => r.what === 1).map((r) => [r.id, Number(r.score)])),
  }));
}
