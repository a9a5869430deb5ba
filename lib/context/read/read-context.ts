import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import type { LearningCandidateRow, SearchPath } from "../../db/queries/context-candidates";
import type { ContextMark } from "../../db/queries/context-marks";
import type { MemberProject } from "../../db/queries/projects";
import { readsLocally } from "../../db/reads-locally";
import type { Seed } from "../../db/schema";
import { readWithTokenCheck } from "./checked-reads";
import type { Reader } from "../../db/queries/scope";
import { readableProjectsRead } from "../../db/queries/context";
import { contextCaches, READABLE_SIZE, readerWord, type ContextCaches } from "./caches";
import { absorb, DONE, hintsNow, planReads, recentKey, startKnown, type Known, type ReadRequest } from "./plan";
import type { ContextQuery } from "../context-query";
import { batchOf, searchedAt, searchOnly, searchParams, snapshotKey, type BatchResults, type Handoff, type PlannedReads, type Sections } from "./batch";
import { searchInMemory } from "../search/bm25-search";
import { indexChangesRead, searchAt, searchIndex } from "../search/index-sync";
import type { LearningIndex } from "../search/learning-index";
import type { SearchHints } from "../hints/hint-query";

/** Each batch learns the owner, then the sections, then the searches: a handful is the most there can be. */
const MAX_ROUNDS = 6;

export type ContextReads = {
  project: MemberProject | null;
  seed: Seed | undefined;
  sections: Sections & { handoff: Handoff };
  hints: SearchHints;
  /** Hint matches, best BM25 first. */
  matches: LearningCandidateRow[];
  /** The newest of the scope, to fill what the matches leave. */
  recent: LearningCandidateRow[];
  vectorWidth: number | null;
  /** The user's marks (last session, setup note shown): bookkeeping, so read afresh every time, never from a snapshot. */
  mark: ContextMark;
  /** The state's version every read saw; null when it moved between rounds. */
  version: string | null;
  /** Where the matches were searched: "sql" when any of its searches was a statement; null: nothing searched for (no word, or none rare enough). */
  searched: SearchPath | null;
};

/**
 * Everything a context is made from, in as few round trips as the caches allow: usually one batch of
 * two or three statements. The plan (lib/context/read/plan.ts) says what each batch reads from
 * what is known; this runs the batches and remembers what they saw.
 *
 * The first batch assumes what this instance saw last: the snapshot of these hints (their project,
 * seed and sections, lib/context/read/batch.ts), the frequencies of words and the recent
 * learnings, all at the version of the state last seen. It reads the version along with what no cache
 * holds (the branch's handoff, the search). When the version read is another, what was assumed is read
 * again in a second batch, with the snapshot still naming the project and the task title to expect (a
 * third only when those turn out wrong too). Nothing assumed reaches a context unchecked.
 */
export async function readContext(db: Db, principal: Principal, q: ContextQuery, limit: number): Promise<ContextReads> {
  const caches = contextCaches();
  const key = snapshotKey(principal.userId, principal.projectIds, q);
  const request: ReadRequest = { principal, q, limit, snapshot: caches.snapshots.get(key), local: readsLocally(db) };
  const index = searchIndex(db);
  let known = startKnown(request);
  let last: Last | undefined;
  for (let plan = planReads(known, request, caches); plan !== DONE; plan = planReads(known, request, caches)) {
    if (known.versions.length === MAX_ROUNDS) throw new Error("a context's reads did not settle");
    const { readable, ...results } = await readBatch(db, request, plan.reads, index, last);
    last = { meta: results.meta, readable: readable ?? last?.readable };
    rememberRead(caches, results, principal);
    const next = absorb(known, results, plan.assumed, request, caches);
    if (results.recentPersonal && !known.recent && next.recent) caches.recent.set(results.meta.version, recentKey(next.owner, limit), next.recent);
    known = next;
  }
  return finish(known, request, caches, key);
}

/**
 * One batch's reads. With the learnings' index in memory (lib/context/search), the search is not a
 * statement: the batch reads which change to the learnings is the last and the changes the index has
 * not applied (none, nearly always), and the index, brought up to it, answers the search as searchRead
 * would (searchAt): no round trip of its own, after a write either. When the search is all a batch
 * would read (the feedback's), it is answered from the index at the state the batch before read.
 */
async function readBatch(db: Db, { principal, q, limit }: ReadRequest, reads: PlannedReads, index: LearningIndex | null, last: Last | undefined): Promise<BatchResults & { readable?: string[] }> {
  if (!index || !reads.search) return readWithTokenCheck(db, principal, batchOf(db, principal, q, limit, reads));
  const params = searchParams(reads.search, limit, principal);
  // Only the feedback's search is left, and the index holds the state the last batch read: no batch at all.
  if (last?.readable && searchOnly(reads) && index.changed >= last.meta.learningsChanged) return searchedAt(last.meta, searchInMemory(index, params, last.readable));
  const after = index.changed;
  const batch = { ...batchOf(db, principal, q, limit, { ...reads, search: undefined }), changes: indexChangesRead(db, index), readable: readableProjectsRead(db, principal) };
  const { changes, ...results } = await readWithTokenCheck(db, principal, batch);
  return { ...results, search: await searchAt(db, params, results.meta, { after, read: changes }, results.readable) };
}

/** What the last batch read: the state, and the projects the reader may read (read with a search in memory). */
type Last = { meta: BatchResults["meta"]; readable: string[] | undefined };

/** What a batch tells the instance to remember: the state's version, and the frequencies the search counted among what the reader may read, with how many those are. */
function rememberRead(caches: ContextCaches, r: BatchResults, reader: Reader): void {
  const version = r.meta.version;
  caches.seen.version = version;
  if (!r.search) return;
  caches.frequencies.set(version, readerWord(reader, READABLE_SIZE), r.search.size);
  for (const [term, n] of r.search.counted) caches.frequencies.set(version, readerWord(reader, term), n);
}

/** The reads' answer; the snapshot remembered when every batch saw one version. */
function finish(k: Known, request: ReadRequest, caches: ContextCaches, key: string): ContextReads {
  const version = k.versions.every((v) => v === k.versions[0]) ? k.versions[0]! : null;
  if (version !== null) caches.snapshots.set(key, { version, project: k.project, seed: k.seed!.value, sections: k.sections! });
  const { project, matches, recent, vectorWidth, mark } = k;
  const sections = { ...k.sections!, handoff: k.handoff?.value };
  const hints = hintsNow(k, request);
  // A search that chose no word (each too common) ranked nothing, nor did one made for words the hints
  // turned out not to have (an assumed task title): the context lists the recent ones.
  const paths = hints.terms.length ? [k.first?.searched, k.second].flatMap((s) => (s && s.chosen !== null ? [s.via] : [])) : [];
  const searched = paths.includes("sql") ? "sql" : paths.includes("memory") ? "memory" : null;
  return { project, seed: k.seed!.value, sections, hints, matches: matches!, recent: recent!, vectorWidth, mark, version, searched };
}
