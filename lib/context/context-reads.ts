import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { readAll, type Results } from "../db/queries/batch-reads";
import { matchesRead, newestOfBoth, rankedCandidatesRead, recentReads, type HintTerm, type LearningCandidateRow } from "../db/queries/context-candidates";
import {
  handoffReads,
  learningCountsRead,
  metaRead,
  pendingProposalsRead,
  projectChoicesRead,
  queuedSessionsRead,
  seedRead,
  taskMemoryRead,
} from "../db/queries/context";
import type { MemberProject } from "../db/queries/projects";
import type { Owner } from "../db/queries/scope";
import type { Seed } from "../db/schema";
import { chooseProject, hintsNameProject } from "./choose-project";
import { contextCaches } from "./context-caches";
import type { ContextQuery } from "./context-query";
import { ftsExpression } from "../learnings/fts-query";
import { hintsOf, selectTerms, TERM_SELECTION, titleOf, type SearchHints } from "./hint-query";
import { directoryName } from "./match-project";

const LISTED_PROPOSALS = 20;


function sectionReads(db: Db, owner: Owner, q: ContextQuery) {
  const projectId = owner.projectId;
  return {
    memory: projectId ? taskMemoryRead(db, { userId: owner.userId, projectId, taskId: q.task }) : undefined,
    ...(projectId ? handoffReads(db, { projectId, branch: q.branch ?? null }) : { onBranch: undefined, latest: undefined }),
    queued: projectId ? queuedSessionsRead(db, { projectId }) : undefined,
    proposals: pendingProposalsRead(db, { ...owner, limit: LISTED_PROPOSALS }),
    counts: learningCountsRead(db, owner),
  };
}

/** The sections' data (everything but the learnings themselves), for the project a context is of. */
export type Sections = ReturnType<typeof sectionsOf>;

function sectionsOf(r: Results<ReturnType<typeof sectionReads>>) {
  return { memory: r.memory, handoff: r.onBranch ?? r.latest, queued: r.queued ?? 0, proposals: r.proposals, counts: r.counts };
}

/**
 * What a round of reads assumed: the owner, the hint words and their frequencies as far as known,
 * recent learnings from the cache. `match`: the search expression when every word's frequency (and the
 * store's size) was known, so it was chosen here (null: no word worth searching); undefined: chosen in SQL.
 */
type Assumed = {
  owner?: Owner;
  terms: HintTerm[];
  termsKey: string;
  usedKnown: boolean;
  match?: string | null;
  version: string | null;
  cachedRecent?: LearningCandidateRow[];
};

export type ContextReads = {
  project: MemberProject | null;
  seed: Seed | undefined;
  sections: Sections;
  hints: SearchHints;
  /** Hint matches, best BM25 first. */
  matches: LearningCandidateRow[];
  /** The newest of the scope, to fill what the matches leave. */
  recent: LearningCandidateRow[];
  vectorWidth: number | null;
  /** The state's version every read saw; null when it moved between rounds. */
  version: string | null;
};

/**
 * Everything a context is made from, in as few round trips as the caches allow: usually one batch.
 *
 * The first batch assumes what this instance saw last (the project these hints chose, the task's
 * title, the frequencies of words and the recent learnings at the state's version) and reads the
 * version and the project choices along with the rest. What the batch shows to have been assumed
 * wrongly is read again, knowing it now, in a second batch (a third only when a newly chosen
 * project's task title changes the words to search for). Nothing assumed reaches a context unchecked.
 */
class ContextReading {
  private owner?: Owner;
  private ownerKnown: boolean;
  private project: MemberProject | null = null;
  private seed?: Seed;
  private sections?: Sections;
  private matches?: LearningCandidateRow[];
  private recent?: LearningCandidateRow[];
  private vectorWidth: number | null = null;
  private readonly versions: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly principal: Principal,
    private readonly q: ContextQuery,
    private readonly limit: number,
  ) {
    this.ownerKnown = !hintsNameProject(q);
    const guess = this.ownerKnown ? null : contextCaches().projects.get(this.projectKey);
    if (guess !== undefined) this.owner = { userId: principal.userId, projectId: guess };
  }

  async read(): Promise<ContextReads> {
    for (let round = 0; !this.done(); round++) {
      const assumed = this.assume(round);
      this.absorb(await readAll(this.db, this.reads(round, assumed)), assumed, round);
    }
    const version = this.versions.every((v) => v === this.versions[0]) ? this.versions[0]! : null;
    const { project, seed, sections, matches, recent, vectorWidth } = this;
    return { project, seed, sections: sections!, hints: this.hints(), matches: matches!, recent: recent!, vectorWidth, version };
  }

  private done(): boolean {
    return this.ownerKnown && this.sections !== undefined && this.matches !== undefined && this.recent !== undefined;
  }

  private get projectKey(): string {
    const { q, principal } = this;
    return JSON.stringify([principal.userId, principal.projectIds, q.project ?? null, q.cwd ?? null, q.remote ?? null]);
  }

  private get recentKey(): string {
    return JSON.stringify([this.owner?.userId, this.owner?.projectId, this.limit]);
  }

  private get titleKey(): string {
    return JSON.stringify([this.owner?.userId, this.owner?.projectId, this.q.task ?? null]);
  }

  /** The hint words, with the task's title as read, else as last seen for this task. */
  private hints(): SearchHints {
    const title = this.sections ? titleOf(this.sections.memory) : (contextCaches().titles.get(this.titleKey) ?? null);
    return hintsOf(this.q, title);
  }

  /** What this round may take as known. Frequencies and recent learnings from the caches in the first two rounds only, so reading ends. */
  private assume(round: number): Assumed {
    const caches = contextCaches();
    const version = round === 0 ? caches.frequencies.currentVersion : this.versions.at(-1)!;
    const trusted = round < 2 ? version : null;
    const words = this.hints().terms;
    const terms = words.map((t): HintTerm => [t, caches.frequencies.get(trusted, t) ?? null]);
    const usedKnown = terms.some(([, n]) => n !== null);
    const size = caches.storeSize.get(trusted, "store");
    const match = size !== undefined && terms.every(([, n]) => n !== null) ? ftsExpression(selectTerms(words, new Map(terms as [string, number][]), size)) : undefined;
    const cachedRecent = this.owner && !this.recent ? caches.recent.get(trusted, this.recentKey) : undefined;
    return { owner: this.owner, terms, termsKey: words.join(" "), usedKnown, match, version: trusted, cachedRecent };
  }

  private learningReads(assumed: Assumed) {
    const { db, owner, limit } = this;
    if (!owner || this.matches || !assumed.terms.length || assumed.match === null) return undefined;
    if (assumed.match) return matchesRead(db, { ...owner, match: assumed.match, limit });
    return rankedCandidatesRead(db, { ...owner, terms: assumed.terms, limit, selection: TERM_SELECTION });
  }

  private reads(round: number, assumed: Assumed) {
    const { db, q, principal, owner } = this;
    const recent = owner && !this.recent && !assumed.cachedRecent ? recentReads(db, { ...owner, limit: this.limit }) : { personal: undefined, project: undefined };
    return {
      meta: metaRead(db),
      choices: round === 0 && !this.ownerKnown ? projectChoicesRead(db, { userId: principal.userId, slug: q.project, dirSlug: q.cwd ? directoryName(q.cwd) : null }) : undefined,
      seed: round === 0 ? seedRead(db, { userId: principal.userId }) : undefined,
      ...(owner && !this.sections ? sectionReads(db, owner, q) : { memory: undefined, onBranch: undefined, latest: undefined, queued: undefined, proposals: undefined, counts: undefined }),
      learnings: this.learningReads(assumed),
      recentPersonal: recent.personal,
      recentProject: recent.project,
    };
  }

  private absorb(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed, round: number): void {
    const caches = contextCaches();
    this.versions.push(r.meta.version);
    this.vectorWidth = r.meta.vectorWidth;
    if (round === 0) this.seed = r.seed;
    caches.storeSize.set(r.meta.version, "store", r.meta.storeSize);
    if (r.learnings) for (const [term, n] of r.learnings.counted) caches.frequencies.set(r.meta.version, term, n);
    if (r.choices) this.choose(r.choices);
    // Reads made for another owner than the one chosen are of no use.
    if (!assumed.owner || assumed.owner.projectId !== this.owner?.projectId) return;
    if (r.proposals && r.counts) {
      this.sections = sectionsOf({ ...r, proposals: r.proposals, counts: r.counts });
      caches.titles.set(this.titleKey, titleOf(this.sections.memory));
    }
    const termsNow = this.hints().terms;
    const searched = r.learnings !== undefined || assumed.match === null;
    if (this.matches) return this.absorbRecent(r, assumed);
    if (!termsNow.length) this.matches = [];
    else if (searched && this.sections && termsNow.join(" ") === assumed.termsKey && (!assumed.usedKnown || assumed.version === r.meta.version)) {
      this.matches = r.learnings?.candidates ?? [];
    }
    this.absorbRecent(r, assumed);
  }

  private absorbRecent(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed): void {
    if (this.recent) return;
    if (r.recentPersonal) {
      this.recent = newestOfBoth(r.recentPersonal, r.recentProject ?? [], this.limit);
      contextCaches().recent.set(r.meta.version, this.recentKey, this.recent);
    } else if (assumed.cachedRecent && assumed.version === r.meta.version) this.recent = assumed.cachedRecent;
  }

  private choose(choices: Parameters<typeof chooseProject>[0]): void {
    this.project = chooseProject(choices, this.principal, this.q);
    this.ownerKnown = true;
    contextCaches().projects.set(this.projectKey, this.project?.id ?? null);
    if (this.owner?.projectId !== (this.project?.id ?? null)) {
      this.owner = { userId: this.principal.userId, projectId: this.project?.id ?? null };
      this.sections = undefined;
    }
  }
}

export function readContext(db: Db, principal: Principal, q: ContextQuery, limit: number): Promise<ContextReads> {
  return new ContextReading(db, principal, q, limit).read();
}
