import type { Principal } from "../../auth/principal";
import { newestOfBoth, type HintTerm, type LearningCandidateRow, type Searched } from "../../db/queries/context-candidates";
import { NO_MARK, type ContextMark } from "../../db/queries/context-marks";
import type { MemberProject } from "../../db/queries/projects";
import type { Owner, Reader } from "../../db/queries/scope";
import type { Seed } from "../../db/schema";
import { ftsExpression } from "../../learnings/fts-query";
import { chooseProject, hintsNameProject, type ProjectChoice } from "../project/choose-project";
import type { ContextQuery } from "../context-query";
import { NOTHING_SEARCHED, sectionsOf, type Assumed, type BatchResults, type Handoff, type PlannedReads, type PlannedSearch, type Sections, type Snapshot } from "./batch";
import { FEEDBACK_TERMS, feedbackTerms, hintsOf, selectTerms, titleOf, type SearchHints } from "../hints/hint-query";
import { READABLE_SIZE, readerWord } from "./caches";

/**
 * The plan of a context's reads, as pure functions over an immutable record of what is known so far
 * (lib/context/read/read-context.ts runs them): `planReads` says which reads the next batch needs, or that
 * nothing is left to read; `absorb` takes a batch's answers into a new record. Nothing here reads or
 * writes: what the instance remembers (`Memory`) is given, and remembered by the caller.
 */

/**
 * What is known so far. `owner`: the scope read for (undefined until the project is known or assumed
 * from the snapshot); `ownerKnown`: the project is chosen. `first`: the hints' search (with the words
 * it searched for: taken once the task title read says the same); `feedback`: the words its best
 * matches' tags add (null: none), searched for in `second`. `versions`: the state's version each batch
 * read, one a batch. `hinted`: the hint words for the task title they were made with.
 */
export type Known = {
  readonly owner?: Owner;
  readonly ownerKnown: boolean;
  readonly project: MemberProject | null;
  readonly seed?: { readonly value: Seed | undefined };
  readonly sections?: Sections;
  readonly handoff?: { readonly value: Handoff };
  readonly first?: { readonly searched: Searched; readonly key: string };
  readonly feedback?: Feedback | null;
  readonly second?: Searched;
  readonly matches?: LearningCandidateRow[];
  readonly recent?: LearningCandidateRow[];
  readonly vectorWidth: number | null;
  readonly mark: ContextMark;
  readonly versions: readonly string[];
  readonly hinted: { readonly title: string | null; readonly hints: SearchHints };
};

/** The words the first matches' tags add, with what is known of them, and the expression to search when every frequency is known. */
export type Feedback = { extra: HintTerm[]; match?: string };

/** What one context's reads are for: the same through every batch. `local`: reads are answered on this machine (reads-locally.ts). */
export type ReadRequest = {
  principal: Principal;
  q: ContextQuery;
  limit: number;
  snapshot?: Snapshot;
  local: boolean;
};

/** What the instance remembers between contexts (lib/context/read/caches.ts), as far as the plan consults it. */
export type Memory = {
  seen: { readonly version: string | null };
  frequencies: { readonly currentVersion: string | null; get(version: string | null, term: string): number | undefined };
  recent: { get(version: string | null, key: string): LearningCandidateRow[] | undefined };
};

/** One batch: the reads to make and what they assume. */
export type Plan = { reads: PlannedReads; assumed: Assumed };

/** Nothing is left to read. */
export const DONE = "done";

/** What is known before any read: the owner when the hints name no project (personal), or as the snapshot had it. */
export function startKnown(request: ReadRequest): Known {
  const ownerKnown = !hintsNameProject(request.q);
  // A snapshot knows the owner: its project's, or personal (none); without one it is to be read.
  const projectId = ownerKnown ? null : request.snapshot ? (request.snapshot.project?.id ?? null) : undefined;
  const title = titleOf(request.snapshot?.sections.memory);
  return {
    ...(projectId !== undefined ? { owner: { userId: request.principal.userId, projectId } } : {}),
    ownerKnown,
    project: null,
    vectorWidth: null,
    mark: NO_MARK,
    versions: [],
    hinted: { title, hints: hintsOf(request.q, title) },
  };
}

/** Whether everything a context is made from is known. */
export function isDone(k: Known): boolean {
  const handoffKnown = k.handoff !== undefined || k.owner?.projectId === null;
  return k.ownerKnown && k.seed !== undefined && k.sections !== undefined && handoffKnown && k.matches !== undefined && k.recent !== undefined;
}

/** Where recent learnings of an owner are remembered. */
export const recentKey = (owner: Owner | undefined, limit: number): string => JSON.stringify([owner?.userId, owner?.projectId, limit]);

/** The hint words, with the task's title as read, else as the snapshot had it. */
export function hintsNow(k: Known, request: ReadRequest): SearchHints {
  const title = titleOf((k.sections ?? request.snapshot?.sections)?.memory);
  return k.hinted.title === title ? k.hinted.hints : hintsOf(request.q, title);
}

/**
 * The next batch, from what is known. What it may take as known: the snapshot, in the first batch and
 * when its version is the one last seen; recent learnings from the cache in the first two batches
 * only, so reading ends; the hints' search expression chosen here (chooseHere).
 */
export function planReads(k: Known, request: ReadRequest, memory: Memory): Plan | typeof DONE {
  if (isDone(k)) return DONE;
  const round = k.versions.length;
  const version = round === 0 ? memory.seen.version : k.versions.at(-1)!;
  const trusted = round < 2 ? version : null;
  const snapshot = round === 0 && request.snapshot !== undefined && request.snapshot.version === version;
  const cachedRecent = k.owner && !k.recent ? memory.recent.get(trusted, recentKey(k.owner, request.limit)) : undefined;
  const words = hintsNow(k, request).terms;
  const chosen = k.first || !words.length ? undefined : chooseHere(words, request, memory);
  const assumed: Assumed = { owner: k.owner, snapshot, readSeed: !k.seed && !snapshot, termsKey: words.join(" "), chosen, version: trusted, cachedRecent };
  const owner = k.owner;
  const reads: PlannedReads = {
    // A key lookup in the batch the first round sends anyway: no round trip of its own.
    mark: round === 0,
    choices: !k.ownerKnown && !snapshot,
    seed: assumed.readSeed,
    sections: owner && !k.sections && !snapshot ? owner : undefined,
    handoff: owner?.projectId && !k.handoff ? { userId: owner.userId, projectId: owner.projectId } : undefined,
    search: plannedSearch(k, assumed, words, memory, request.principal),
    recent: owner && !k.recent && !cachedRecent ? owner : undefined,
  };
  return { reads, assumed };
}

/**
 * On this machine, the hints' search expression is chosen here when every word's frequency among what
 * the reader may read, and how many learnings that is, are remembered at the version last seen: no
 * statement counts, and none searches when no word is worth it. On a server, the search chooses in SQL,
 * checking itself what it was told against the version it reads, so no round trip is ever lost to a
 * version that moved.
 */
function chooseHere(words: string[], request: ReadRequest, memory: Memory): Assumed["chosen"] {
  const { terms, knownAt } = termsKnown(words, request.principal, memory);
  const size = memory.frequencies.get(knownAt, readerWord(request.principal, READABLE_SIZE));
  if (!request.local || knownAt === null || knownAt !== memory.seen.version || size === undefined) return undefined;
  if (terms.some(([, n]) => n === null)) return undefined;
  return { version: knownAt, match: ftsExpression(selectTerms(words, new Map(terms as [string, number][]), size)) };
}

/** Words with the frequencies among what the reader may read remembered for them, and the version those hold for (the search checks it). */
function termsKnown(words: string[], reader: Reader, memory: Memory): { terms: HintTerm[]; knownAt: string | null } {
  const knownAt = memory.frequencies.currentVersion;
  return { terms: words.map((t): HintTerm => [t, memory.frequencies.get(knownAt, readerWord(reader, t)) ?? null]), knownAt };
}

/** The search this batch makes: the feedback's, else the hints' (by an expression chosen here, or chosen in SQL); none once matched. */
function plannedSearch(k: Known, assumed: Assumed, words: string[], memory: Memory, reader: Reader): PlannedSearch | undefined {
  const { owner } = k;
  if (!owner || k.matches || k.second) return undefined;
  // The feedback's words are searched alone, the hints' scores added (BM25 is a sum over the words
  // searched for): as one search for both ranks them, without scoring the hints' matches again.
  const scored = k.first?.searched.scores;
  if (k.first && k.feedback?.match) return { owner, match: k.feedback.match, scored };
  if (k.first && k.feedback) return { owner, ...termsKnown(k.feedback.extra.map(([t]) => t), reader, memory), maxTerms: FEEDBACK_TERMS, scored };
  if (assumed.chosen) return assumed.chosen.match ? { owner, match: assumed.chosen.match, scores: true } : undefined;
  return !k.first && words.length ? { owner, ...termsKnown(words, reader, memory), scores: true } : undefined;
}

/**
 * A batch's answers taken into what is known. `memory` already holds what the batch counted (the
 * caller remembers it first). Reads made for another owner than the one then chosen are of no use.
 */
export function absorb(known: Known, r: BatchResults, assumed: Assumed, request: ReadRequest, memory: Memory): Known {
  const version = r.meta.version;
  let k: Known = { ...known, mark: r.mark ?? known.mark, versions: [...known.versions, version], vectorWidth: r.meta.vectorWidth };
  const { snapshot } = request;
  if (assumed.snapshot && snapshot?.version === version) k = { ...k, project: snapshot.project, ownerKnown: true, seed: { value: snapshot.seed }, sections: snapshot.sections };
  if (assumed.readSeed) k = { ...k, seed: { value: r.seed } };
  if (r.choices) k = choose(k, r.choices, request);
  if (assumed.owner && assumed.owner.projectId === k.owner?.projectId) k = absorbOwned(k, r, assumed, request, memory);
  const hints = hintsNow(k, request);
  return hints === k.hinted.hints ? k : { ...k, hinted: { title: titleOf((k.sections ?? snapshot?.sections)?.memory), hints } };
}

function absorbOwned(known: Known, r: BatchResults, assumed: Assumed, request: ReadRequest, memory: Memory): Known {
  const version = r.meta.version;
  let k: Known = known.sections ? known : { ...known, sections: sectionsOf(r) };
  if (assumed.owner?.projectId && !k.handoff) k = { ...k, handoff: { value: r.handoff } };
  const searched = assumed.chosen ? (assumed.chosen.version === version ? (r.search ?? NOTHING_SEARCHED) : undefined) : r.search;
  if (!k.matches) k = absorbSearch(k, searched, assumed, version, request, memory);
  if (!k.recent) k = absorbRecent(k, r, assumed, request.limit);
  return k;
}

/**
 * A search's answer: the hints' (whose best matches' tags then say what the feedback search adds,
 * searched in the next batch, in the same one as the sections when the task title was assumed), or
 * the feedback's. The matches are taken once the task title read gives the words searched for.
 */
function absorbSearch(known: Known, searched: Searched | undefined, assumed: Assumed, version: string, request: ReadRequest, memory: Memory): Known {
  let k = known;
  if (searched && k.first) k = { ...k, second: searched };
  else if (searched) k = { ...k, first: { searched, key: assumed.termsKey }, feedback: feedbackOf(k, searched, version, request, memory) };
  const words = hintsNow(k, request).terms;
  if (!words.length) k = { ...k, matches: [] };
  if (k.matches || !k.sections || !k.first) return k;
  if (k.first.key !== words.join(" ")) return forgetSearches(k);
  const { candidates } = k.first.searched;
  if (k.feedback === null) return { ...k, matches: candidates };
  if (k.second) return { ...k, matches: k.second.chosen === null ? candidates : k.second.candidates };
  return k;
}

/**
 * The words the first matches' tags add, with what is known of them among what the reader may read;
 * null: none worth searching for (told when every frequency is known).
 */
function feedbackOf(k: Known, first: Searched, version: string, request: ReadRequest, memory: Memory): Feedback | null {
  const extra = first.chosen === null ? [] : feedbackTerms(first.candidates, hintsNow(k, request).terms);
  if (!extra.length) return null;
  const terms = extra.map((t): HintTerm => [t, memory.frequencies.get(version, readerWord(request.principal, t)) ?? null]);
  if (terms.some(([, n]) => n === null)) return { extra: terms };
  const added = ftsExpression(selectTerms(extra, new Map(terms as [string, number][]), first.size).slice(0, FEEDBACK_TERMS));
  return added ? { extra: terms, match: added } : null;
}

const forgetSearches = (k: Known): Known => ({ ...k, first: undefined, feedback: undefined, second: undefined, matches: undefined });

function absorbRecent(k: Known, r: BatchResults, assumed: Assumed, limit: number): Known {
  if (r.recentPersonal) return { ...k, recent: newestOfBoth(r.recentPersonal, r.recentProject ?? [], limit) };
  if (assumed.cachedRecent && assumed.version === r.meta.version) return { ...k, recent: assumed.cachedRecent };
  return k;
}

/** The project chosen: reading for another owner than assumed starts its sections and searches anew. */
function choose(k: Known, choices: ProjectChoice[], request: ReadRequest): Known {
  const project = chooseProject(choices, request.principal, request.q);
  const projectId = project?.id ?? null;
  if (k.owner?.projectId === projectId) return { ...k, project, ownerKnown: true };
  return { ...forgetSearches(k), project, ownerKnown: true, owner: { userId: request.principal.userId, projectId }, sections: undefined, handoff: undefined };
}
