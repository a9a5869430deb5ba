import { and, desc, eq, isNull, sql, type Column, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { appMeta, learningCounts, learnings, users, type LearningKind } from "../schema";
import { read } from "./batch-reads";
import { matching, readerStatistics } from "./learning-counts";
import { ofProject, personalAndProject, personalOf, visibleTo, type Owner, type Reader } from "./scope";

/**
 * Candidates for a context: FTS matches of the hints, best BM25 first; or, without hints, the newest
 * of the user's personal learnings and the project's, confirmed first.
 *
 * Both shapes are written to stay fast on a large store: the search keeps the best FTS_WINDOW matches
 * the reader may rank; "newest" reads the two scopes separately, each along its (owner, created_at) index.
 */
export const FTS_WINDOW = 2000;

/** How much a hint word found in a learning's tags counts against one found in its content (BM25 column weights). */
export const DEFAULT_TAG_WEIGHT = 0.5;

/** What a context needs of a learning, and no more: it reads hundreds of these per request. */
export type LearningCandidateRow = {
  id: string;
  seq: number;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  createdAt: Date;
  /** Space-separated, as stored. */
  tags: string;
  /** Who wrote it: a context names a teammate as the writer (null: that account is gone). */
  userId: string;
  author: string | null;
  score?: number;
};

/**
 * The name of a learning's writer, as a scalar subquery on the users' primary key: a context names
 * teammates without a statement (or a round trip) of its own, and only for the rows it reads.
 */
export function writerName(userId: Column): SQL<string | null> {
  return sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${userId})`;
}

/** The columns of a LearningCandidateRow, for drizzle's select. */
export const candidateColumns = {
  id: learnings.id,
  seq: learnings.seq,
  kind: learnings.kind,
  content: learnings.content,
  confirmed: learnings.confirmed,
  createdAt: learnings.createdAt,
  tags: learnings.tags,
  userId: learnings.userId,
  author: writerName(learnings.userId),
};

/**
 * What may be ranked into a context: never a superseded learning, and not a pinned one (pinned ones
 * are read by pinnedRead and always shown first).
 */
export function rankable(table: { pinned: Column; supersededAt: Column }): SQL {
  return and(eq(table.pinned, false), isNull(table.supersededAt))!;
}

/** The pinned learnings a context always shows: the user's personal ones and the project's, newest first. */
export function pinnedRead(db: Db, params: Owner) {
  return read(
    db
      .select(candidateColumns)
      .from(learnings)
      .where(and(eq(learnings.pinned, true), isNull(learnings.supersededAt), visibleTo(learnings, personalAndProject(params))))
      .orderBy(desc(learnings.createdAt), desc(learnings.seq)),
  );
}

function newest(db: DbOrTx, where: SQL, limit: number) {
  return db
    .select(candidateColumns)
    .from(learnings)
    .where(and(where, rankable(learnings)))
    .orderBy(desc(learnings.createdAt), desc(learnings.seq))
    .limit(limit);
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
/** How the words to search for are chosen: lib/context/hints/hint-query.ts's selectTerms, in SQL. */
export type TermSelection = { maxShare: number; minCutoff: number; maxMatches: number };
/**
 * A search's answer: the candidates, the words' frequencies it counted, the expression of the words it
 * chose (null: none), and when asked every match's [seq, BM25 score] (not only the candidates'), as the
 * JSON array the feedback's search takes back (one value, however many matches: no row each).
 */
export type Searched = {
  candidates: LearningCandidateRow[];
  counted: Map<string, number>;
  chosen: string | null;
  scores: MatchScores;
  /** How many learnings the reader may read the words were chosen against (learning_counts' count). */
  size: number;
  via?: SearchPath;
};

/** Where a search ran: in the learnings' index in memory (lib/context/search), or as a statement (FTS5). */
export type SearchPath = "memory" | "sql";

/** Every match's BM25 score by seq: as the JSON array of [seq, score] pairs a statement answers and takes, or the pairs themselves (searched in memory: lib/context/search/bm25-search.ts WindowScores). */
export type MatchScores = string | Iterable<readonly [number, number]>;

export type SearchParams = Owner & {
  /** Whose statistics: what the reader may read (readableBy), counted and weighed; the candidates are the owner's scope's. */
  reader: Reader;
  limit: number;
  tagWeight: number;
  /** Also answer every match's score: the hints' search, whose scores the feedback's adds to its own. */
  scores?: boolean;
  /** Scores known from another search ([seq, score] pairs, JSON), added to this search's for the same rows. */
  scored?: MatchScores;
} & (
  | {
      /** An expression chosen already, searched as it is: no word is counted or chosen. */
      match: string;
    }
  | {
      terms: HintTerm[];
      /** The state version the known frequencies hold for: used only when it is still the version (else counted). */
      knownAt: string | null;
      /** At most this many words are chosen (in their order), after selectTerms' rule. */
      maxTerms?: number;
      selection: TermSelection;
    }
);

/** What an expression chosen already counts and chooses: nothing. */
const NO_WORDS = { terms: [] as HintTerm[], knownAt: null, maxTerms: undefined, selection: { maxShare: 0, minCutoff: 0, maxMatches: 0 } };

type SearchRow = {
  what: number;
  id: string;
  seq: number;
  kind: LearningKind;
  content: string;
  confirmed: number;
  created_at: number;
  tags: string;
  user_id: string;
  author: string | null;
  score: number;
};

/**
 * The FTS candidates of hint words in one statement, so a context needs no round trip between counting
 * words and searching: in how many learnings the reader may read each word occurs (given when known
 * at the state's version), which words to search for (selectTerms' rule against how many those are, in
 * SQL: test/integration/term-selection.test.ts checks they agree), then the best matches by BM25 among
 * those the reader may rank (nothing when no word is chosen).
 *
 * The path of a store too large for the index in memory, and of the moments an index loads or catches
 * up (lib/context/search/index-sync.ts): FTS5's bm25() weighs a word by the whole store's statistics,
 * so there, unlike in memory (bm25-search.ts), what others wrote moves the scores, though never which
 * learnings are counted, chosen among or ranked.
 *
 * Counting stops where choosing stops caring: past the cutoff (a word that common is never searched
 * for), and on a store large enough that the cutoff is past MAX_MATCHES, at MAX_MATCHES + 1: such a word
 * can only ever be chosen as the rarest, so it is counted to the cutoff only when no word is rarer
 * than that. Counting every hint word to 5% of a 100k store read 5,000 rows a word, the likely p99
 * there (BENCHMARKS.md). A count that stopped early is a lower bound, never remembered as a frequency.
 */
export function searchRead(db: Db, params: SearchParams) {
  const words = "match" in params ? NO_WORDS : params;
  const { maxShare, minCutoff, maxMatches } = words.selection;
  const { visible, counted } = readerStatistics(params.reader, params.projectId); // the context's project is the reader's
  const scope = and(visibleTo(learnings, personalAndProject(params)), rankable(learnings));
  // bm25() is spelled out rather than FTS5's configured `rank`: measured faster (99 ms vs 166 ms at 78k matches).
  const query = sql`select * from (
    with terms(i, term, known) as (select key, value ->> 0, value ->> 1 from json_each(${JSON.stringify(words.terms)})),
    gate(ok) as (select (select ${appMeta.value} from ${appMeta} where ${appMeta.key} = 'context_version') is ${words.knownAt}),
    size(n) as (select coalesce(sum(${learningCounts.n}), 0) from ${learningCounts} where ${counted}),
    cut(c, whole, cap) as (select c, cast(c as integer) + 1, min(cast(c as integer), ${maxMatches}) + 1 from (
      select max(${minCutoff}, (select n from size) * ${maxShare}) as c)),
    counted as materialized (
      select i, term, known is null or not (select ok from gate) as fresh,
        case when known is not null and (select ok from gate) then known else (select count(*) from (
          select 1 from ${matching(sql`'"' || term || '"'`)} and ${visible} limit (select cap from cut))) end as n
      from terms),
    rarer(found) as (select exists (select 1 from counted where n > 0 and n <= ${maxMatches})),
    df as materialized (
      select i, term, fresh, case when bound and not (select found from rarer) then (select count(*) from (
          select 1 from ${matching(sql`'"' || term || '"'`)} and ${visible} limit (select whole from cut))) else n end as n,
        not (bound and (select found from rarer)) as exact
      from (select *, fresh and n = (select cap from cut) and (select cap < whole from cut) as bound from counted)),
    usable as (
      select i, term, sum(n) over (order by n, i rows unbounded preceding) as cum, row_number() over (order by n, i) as r
      from df where n > 0 and n <= (select c from cut)),
    expr(q) as (${
      "match" in params
        ? sql`select ${params.match}`
        : sql`select group_concat(phrase, ' OR ') from (
      select '"' || term || '"' as phrase from usable where r = 1 or cum <= ${maxMatches} order by i limit ${words.maxTerms ?? -1})`
    }),
    own as (
      select learnings_fts.rowid as rowid, bm25(learnings_fts, 1.0, ${params.tagWeight}) as score from ${matching(sql`(select coalesce(q, '""') from expr)`)} and ${scope}),
    best as (${
      params.scored === undefined
        ? sql`select rowid, score from own order by score, rowid desc limit ${FTS_WINDOW}`
        : sql`select rowid, sum(score) as score from (
        select rowid, score from own
        union all select value ->> 0, value ->> 1 from json_each(${scoresJson(params.scored)}) where (select q from expr) is not null)
      group by rowid order by score, rowid desc limit ${FTS_WINDOW}`
    })
    select * from (
      select 0 as what, ${learnings.id} as id, ${learnings.seq} as seq, ${learnings.kind} as kind, ${learnings.content} as content,
        ${learnings.confirmed} as confirmed, ${learnings.createdAt} as created_at, ${learnings.tags} as tags,
        ${learnings.userId} as user_id, ${writerName(learnings.userId)} as author, best.score as score
      from best join ${learnings} on ${learnings.seq} = best.rowid where ${scope} order by best.score, ${learnings.createdAt} desc, ${learnings.seq} desc limit ${params.limit})
    union all select 1, term, null, null, null, null, null, null, null, null, n from df where fresh and exact
    union all select 2, q, null, null, null, null, null, null, null, null, null from expr
    union all select 4, null, null, null, null, null, null, null, null, null, n from size
    ${params.scores ? sql`union all select 3, (select json_group_array(json_array(rowid, score)) from best), null, null, null, null, null, null, null, null, null` : sql``})`;
  return read(db.all<SearchRow>(query), (rows): Searched => ({
    candidates: rows.filter((r) => r.what === 0).map(candidateOf),
    counted: new Map(rows.filter((r) => r.what === 1).map((r) => [r.id, Number(r.score)])),
    chosen: rows.find((r) => r.what === 2)?.id ?? null,
    scores: rows.find((r) => r.what === 3)?.id ?? "[]",
    size: Number(rows.find((r) => r.what === 4)?.score ?? 0),
    via: "sql",
  }));
}

function scoresJson(scores: MatchScores): string {
  return typeof scores === "string" ? scores : JSON.stringify([...scores]);
}

function candidateOf(r: SearchRow): LearningCandidateRow {
  return {
    id: r.id,
    seq: Number(r.seq),
    kind: r.kind,
    content: r.content,
    confirmed: Boolean(Number(r.confirmed)),
    createdAt: new Date(Number(r.created_at)),
    tags: r.tags,
    userId: r.user_id,
    author: r.author,
    score: Number(r.score),
  };
}
