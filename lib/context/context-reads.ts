import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { readAll, type Results } from "../db/queries/batch-reads";
import { matchesRead, newestOfBoth, rankedCandidatesRead, recentReads, type HintTerm, type LearningCandidateRow } from "../db/queries/context-candidates";
import { handoffRead, metaRead, projectChoicesRead, seedRead } from "../db/queries/context";
import type { MemberProject } from "../db/queries/projects";
import type { Owner } from "../db/queries/scope";
import type { Seed } from "../db/schema";
import { ftsExpression } from "../learnings/fts-query";
import { chooseProject, hintsNameProject } from "./choose-project";
import { contextCaches } from "./context-caches";
import type { ContextQuery } from "./context-query";
import { NO_SECTION_READS, sectionReads, sectionsOf, snapshotKey, type Assumed, type Sections, type Snapshot } from "./context-read-parts";
import { hintsOf, selectTerms, TERM_SELECTION, titleOf, type SearchHints } from "./hint-query";
import { directoryName } from "./match-project";

type Handoff = Results<{ h: ReturnType<typeof handoffRead> }>["h"];

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
  /** The state's version every read saw; null when it moved between rounds. */
  version: string | null;
};

/**
 * Everything a context is made from, in as few round trips as the caches allow: usually one batch of
 * two or three statements.
 *
 * The first batch assumes what this instance saw last: the snapshot of these hints (their project,
 * seed and sections, lib/context/context-read-parts.ts), the frequencies of words and the recent
 * learnings, all at the version of the state last seen. It reads the version along with what no cache
 * holds (the branch's handoff, the search). When the version read is another, what was assumed is read
 * again in a second batch, with the snapshot still naming the project and the task title to expect (a
 * third only when those turn out wrong too). Nothing assumed reaches a context unchecked.
 */
class ContextReading {
  private readonly key: string;
  private readonly snapshot?: Snapshot;
  private owner?: Owner;
  private ownerKnown: boolean;
  private project: MemberProject | null = null;
  private seed?: { value: Seed | undefined };
  private sections?: Sections;
  private handoff?: { value: Handoff };
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
    this.key = snapshotKey(principal.userId, principal.projectIds, q);
    this.snapshot = contextCaches().snapshots.get(this.key);
    this.ownerKnown = !hintsNameProject(q);
    const projectId = this.ownerKnown ? null : this.snapshot?.project?.id;
    if (projectId !== undefined) this.owner = { userId: principal.userId, projectId };
  }

  async read(): Promise<ContextReads> {
    for (let round = 0; !this.done(); round++) {
      const assumed = this.assume(round);
      this.absorb(await readAll(this.db, this.reads(assumed)), assumed);
    }
    const version = this.versions.every((v) => v === this.versions[0]) ? this.versions[0]! : null;
    if (version !== null) contextCaches().snapshots.set(this.key, { version, project: this.project, seed: this.seed!.value, sections: this.sections! });
    const { project, matches, recent, vectorWidth } = this;
    const sections = { ...this.sections!, handoff: this.handoff?.value };
    return { project, seed: this.seed!.value, sections, hints: this.hints(), matches: matches!, recent: recent!, vectorWidth, version };
  }

  private done(): boolean {
    const handoffKnown = this.handoff !== undefined || this.owner?.projectId === null;
    return this.ownerKnown && this.seed !== undefined && this.sections !== undefined && handoffKnown && this.matches !== undefined && this.recent !== undefined;
  }

  private get recentKey(): string {
    return JSON.stringify([this.owner?.userId, this.owner?.projectId, this.limit]);
  }

  /** The hint words, with the task's title as read, else as the snapshot had it. */
  private hints(): SearchHints {
    return hintsOf(this.q, titleOf((this.sections ?? this.snapshot?.sections)?.memory));
  }

  /** What this round may take as known. Cached frequencies and recent learnings in the first two rounds only, so reading ends. */
  private assume(round: number): Assumed {
    const caches = contextCaches();
    // The store size's cache is set by every batch: its version is the one this instance saw last.
    const version = round === 0 ? caches.storeSize.currentVersion : this.versions.at(-1)!;
    const trusted = round < 2 ? version : null;
    const snapshot = round === 0 && this.snapshot !== undefined && this.snapshot.version === version;
    const words = this.hints().terms;
    const terms = words.map((t): HintTerm => [t, caches.frequencies.get(trusted, t) ?? null]);
    const size = caches.storeSize.get(trusted, "store");
    const allKnown = size !== undefined && terms.every(([, n]) => n !== null);
    const match = allKnown ? ftsExpression(selectTerms(words, new Map(terms as [string, number][]), size)) : undefined;
    const cachedRecent = this.owner && !this.recent ? caches.recent.get(trusted, this.recentKey) : undefined;
    const usedKnown = terms.some(([, n]) => n !== null);
    return { owner: this.owner, snapshot, readSeed: !this.seed && !snapshot, terms, termsKey: words.join(" "), usedKnown, match, version: trusted, cachedRecent };
  }

  private learningReads(assumed: Assumed) {
    const { db, owner, limit } = this;
    if (!owner || this.matches || !assumed.terms.length || assumed.match === null) return undefined;
    if (assumed.match) return matchesRead(db, { ...owner, match: assumed.match, limit });
    return rankedCandidatesRead(db, { ...owner, terms: assumed.terms, limit, selection: TERM_SELECTION });
  }

  private reads(assumed: Assumed) {
    const { db, q, principal, owner } = this;
    const recent = owner && !this.recent && !assumed.cachedRecent ? recentReads(db, { ...owner, limit: this.limit }) : { personal: undefined, project: undefined };
    const choices = !this.ownerKnown && !assumed.snapshot;
    return {
      meta: metaRead(db),
      choices: choices ? projectChoicesRead(db, { userId: principal.userId, slug: q.project, dirSlug: q.cwd ? directoryName(q.cwd) : null }) : undefined,
      seed: assumed.readSeed ? seedRead(db, { userId: principal.userId }) : undefined,
      ...(owner && !this.sections && !assumed.snapshot ? sectionReads(db, owner, q) : NO_SECTION_READS),
      handoff: owner?.projectId && !this.handoff ? handoffRead(db, { projectId: owner.projectId, branch: q.branch ?? null }) : undefined,
      learnings: this.learningReads(assumed),
      recentPersonal: recent.personal,
      recentProject: recent.project,
    };
  }

  private absorb(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed): void {
    const caches = contextCaches();
    const version = r.meta.version;
    this.versions.push(version);
    this.vectorWidth = r.meta.vectorWidth;
    caches.storeSize.set(version, "store", r.meta.storeSize);
    if (r.learnings) for (const [term, n] of r.learnings.counted) caches.frequencies.set(version, term, n);
    if (assumed.snapshot && this.snapshot!.version === version) this.adopt(this.snapshot!);
    if (assumed.readSeed) this.seed = { value: r.seed };
    if (r.choices) this.choose(r.choices);
    // Reads made for another owner than the one chosen are of no use.
    if (!assumed.owner || assumed.owner.projectId !== this.owner?.projectId) return;
    this.sections ??= sectionsOf(r);
    if (assumed.owner.projectId && !this.handoff) this.handoff = { value: r.handoff };
    if (!this.matches) this.absorbMatches(r, assumed);
    if (!this.recent) this.absorbRecent(r, assumed);
  }

  private adopt(snapshot: Snapshot): void {
    this.project = snapshot.project;
    this.ownerKnown = true;
    this.seed = { value: snapshot.seed };
    this.sections = snapshot.sections;
  }

  private absorbMatches(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed): void {
    const termsNow = this.hints().terms;
    const searched = r.learnings !== undefined || assumed.match === null;
    const stillTrue = !assumed.usedKnown || assumed.version === r.meta.version;
    if (!termsNow.length) this.matches = [];
    else if (searched && this.sections && termsNow.join(" ") === assumed.termsKey && stillTrue) this.matches = r.learnings?.candidates ?? [];
  }

  private absorbRecent(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed): void {
    if (r.recentPersonal) {
      this.recent = newestOfBoth(r.recentPersonal, r.recentProject ?? [], this.limit);
      contextCaches().recent.set(r.meta.version, this.recentKey, this.recent);
    } else if (assumed.cachedRecent && assumed.version === r.meta.version) this.recent = assumed.cachedRecent;
  }

  private choose(choices: Parameters<typeof chooseProject>[0]): void {
    this.project = chooseProject(choices, this.principal, this.q);
    this.ownerKnown = true;
    if (this.owner?.projectId !== (this.project?.id ?? null)) {
      this.owner = { userId: this.principal.userId, projectId: this.project?.id ?? null };
      this.sections = undefined;
      this.handoff = undefined;
    }
  }
}

export function readContext(db: Db, principal: Principal, q: ContextQuery, limit: number): Promise<ContextReads> {
  return new ContextReading(db, principal, q, limit).read();
}
