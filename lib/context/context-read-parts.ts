import type { Db } from "../db/client";
import type { Results } from "../db/queries/batch-reads";
import { pinnedRead, type LearningCandidateRow, type Searched } from "../db/queries/context-candidates";
import { learningCountsRead, pendingProposalsRead, queuedSessionsRead, taskMemoryRead } from "../db/queries/context";
import type { MemberProject } from "../db/queries/projects";
import type { Owner } from "../db/queries/scope";
import type { LearningKind, Seed } from "../db/schema";
import type { ContextQuery } from "./context-query";

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
 * check (lib/context/context-reads.ts); a snapshot of an older version still says which project and
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
export const NOTHING_SEARCHED: Searched = { candidates: [], counted: new Map(), chosen: null };
