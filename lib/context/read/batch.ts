import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import type { Results } from "../../db/queries/batch-reads";
import { pinnedRead, recentReads, searchRead, type HintTerm, type LearningCandidateRow, type MatchScores, type SearchParams, type Searched } from "../../db/queries/context-candidates";
import { handoffRead, learningCountsRead, metaRead, pendingProposalsRead, queuedSessionsRead, seedRead, taskMemoryRead } from "../../db/queries/context";
import { contextMarkRead } from "../../db/queries/context-marks";
import type { MemberProject } from "../../db/queries/projects";
import type { Owner, Reader } from "../../db/queries/scope";
import type { LearningKind, Seed } from "../../db/schema";
import { projectChoicesFor } from "../project/choose-project";
import type { ContextQuery } from "../context-query";
import { TERM_SELECTION } from "../hints/hint-query";
import { START_TAG_WEIGHT } from "../hints/tag-feedback";

const LISTED_PROPOSALS = 20;

/** The reads of a context's sections that depend on the owner and the task only (not on the branch or the hints). */
export function sectionReads(db: Db, owner: Owner, q: ContextQuery) {
  const projectId = owner.projectId;
  return {
    memory: projectId ? taskMemoryRead(db, { userId: owner.userId, projectId, taskId: q.task }) : undefined,
    queued: projectId ? queuedSessionsRead(db, { projectId }) : undefined,
    proposals: pendingProposalsRead(db, { ...owner, limit: LISTED_PROPOSALS }),
    counts: learningCountsRead(db, owner),
    pinned: pinnedRead(db, owner),
  };
}

/** Reads skipped in a round: the same names, nothing to run. */
export const NO_SECTION_READS = { memory: undefined, queued: undefined, proposals: undefined, counts: undefined, pinned: undefined };

/** The sections' data but the handoff (which depends on the branch): the task's memory, the queue, proposals, counts. */
export type Sections = {
  memory?: { taskId: string; markdown: string; updatedAt: Date; author: string | null; bySelf: boolean };
  queued: number;
  proposals: { items: { id: string; kind: LearningKind; content: string; confidence: number }[]; total: number };
  counts: Record<LearningKind, number>;
  /** In every context of the scope, first. */
  pinned: LearningCandidateRow[];
};

/** The sections' data from the reads, when they were made. */
export function sectionsOf(r: Partial<Results<ReturnType<typeof sectionReads>>>): Sections | undefined {
  if (!r.proposals || !r.counts || !r.pinned) return undefined;
  return { memory: r.memory, queued: r.queued ?? 0, proposals: r.proposals, counts: r.counts, pinned: r.pinned };
}

/**
 * What a user's hints (the project they name, the task) were last given, at one version of the state:
 * which project, the seed, the sections. A request assumes it still holds and reads the version to
 * check (lib/context/read/read-context.ts); a snapshot of an older version still says which project and
 * task title to expect.
 */
export type Snapshot = { version: string; project: MemberProject | null; seed: Seed | undefined; sections: Sections };

/** What a snapshot depends on: the user, the token's projects, the hints that choose the project (a named one alone when named), the task. */
export function snapshotKey(userId: string, projectIds: string[] | null, q: ContextQuery): string {
  const chooses = q.project ? [q.project] : [q.cwd ?? null, q.remote ?? null, q.guess ?? null];
  return JSON.stringify([userId, projectIds, ...chooses, q.task ?? null]);
}

/**
 * What a round of reads assumed. `snapshot`: that the snapshot holds (its version is the one last
 * seen), so the project, seed and sections were not read. `termsKey`: the words searched for, with the
 * task title then expected. `chosen`: the hints' search expression, chosen before the round from
 * frequencies remembered at `chosen.version` (reads on this machine only: the search's answer holds
 * if the round reads that version). Recent learnings from the cache, at `version`.
 */
export type Assumed = {
  owner?: Owner;
  snapshot: boolean;
  readSeed: boolean;
  termsKey: string;
  chosen?: { version: string; match: string | null };
  version: string | null;
  cachedRecent?: LearningCandidateRow[];
};

/** A search that found nothing, because no word was worth searching for. */
export const NOTHING_SEARCHED: Searched = { candidates: [], counted: new Map(), chosen: null, scores: new Map(), size: 0 };

/** The branch's handoff, as read. */
export type Handoff = Results<{ h: ReturnType<typeof handoffRead> }>["h"];

/**
 * A search in an owner's scope: by an expression chosen before (`match`), or by words whose frequencies are known
 * where `terms` says, chosen in SQL. `scores`: answer every match's score (the hints'); `scored`: scores
 * known from the hints' search, added to this one's (the feedback's: searchRead).
 */
export type PlannedSearch = { owner: Owner; scores?: boolean; scored?: MatchScores } & ({ match: string } | { terms: HintTerm[]; knownAt: string | null; maxTerms?: number });

/**
 * The reads of one batch as data (lib/context/read/plan.ts planReads): the user's marks, what the
 * project is chosen from, the seed, the sections and the handoff of an owner, a search, an owner's
 * recent learnings. The state's version is read in every batch.
 */
export type PlannedReads = {
  mark: boolean;
  choices: boolean;
  seed: boolean;
  sections?: Owner;
  handoff?: { userId: string; projectId: string };
  search?: PlannedSearch;
  recent?: Owner;
};

/** The statements of a planned batch. */
export function batchOf(db: Db, principal: Principal, q: ContextQuery, limit: number, planned: PlannedReads) {
  const { search, handoff } = planned;
  const recent = planned.recent ? recentReads(db, { ...planned.recent, limit }) : { personal: undefined, project: undefined };
  return {
    meta: metaRead(db),
    mark: planned.mark ? contextMarkRead(db, { userId: principal.userId }) : undefined,
    choices: planned.choices ? projectChoicesFor(db, principal, q) : undefined,
    seed: planned.seed ? seedRead(db, { userId: principal.userId }) : undefined,
    ...(planned.sections ? sectionReads(db, planned.sections, q) : NO_SECTION_READS),
    handoff: handoff ? handoffRead(db, { ...handoff, branch: q.branch ?? null, sessionId: q.source === "compact" ? (q.sessionId ?? null) : null }) : undefined,
    search: search ? searchRead(db, searchParams(search, limit, principal)) : undefined,
    recentPersonal: recent.personal,
    recentProject: recent.project,
  };
}

/** What searchRead (or the index in memory: lib/context/search) is asked for a planned search, for whoever reads. */
export function searchParams({ owner, ...search }: PlannedSearch, limit: number, reader: Reader): SearchParams {
  const whose = { userId: reader.userId, projectIds: reader.projectIds };
  return { ...owner, reader: whose, limit, tagWeight: START_TAG_WEIGHT, ...("match" in search ? search : { ...search, selection: TERM_SELECTION }) };
}

/** What a planned batch answers. */
export type BatchResults = Results<ReturnType<typeof batchOf>>;

/** Whether a planned batch reads nothing but its search (the feedback's, once the rest is known). */
export function searchOnly(reads: PlannedReads): boolean {
  return !reads.mark && !reads.choices && !reads.seed && !reads.sections && !reads.handoff && !reads.recent;
}

/** A batch's answers when nothing was read but a search: the state as the batch before it read it. */
export function searchedAt(meta: BatchResults["meta"], search: Searched): BatchResults {
  return { meta, search, ...NO_SECTION_READS, mark: undefined, choices: undefined, seed: undefined, handoff: undefined, recentPersonal: undefined, recentProject: undefined };
}
