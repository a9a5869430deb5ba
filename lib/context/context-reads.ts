import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import type { Results } from "../db/queries/batch-reads";
import { matchesRead, newestOfBoth, recentReads, searchRead, type HintTerm, type LearningCandidateRow, type Searched } from "../db/queries/context-candidates";
import { handoffRead, metaRead, seedRead } from "../db/queries/context";
import { contextMarkRead, NO_MARK, type ContextMark } from "../db/queries/context-marks";
import type { MemberProject } from "../db/queries/projects";
import type { Owner } from "../db/queries/scope";
import { readsLocally } from "../db/reads-locally";
import type { Seed } from "../db/schema";
import { ftsExpression } from "../learnings/fts-query";
import { readWithTokenCheck } from "./checked-reads";
import { chooseProject, hintsNameProject, projectChoicesFor } from "./choose-project";
import { contextCaches } from "./context-caches";
import type { ContextQuery } from "./context-query";
import { NO_SECTION_READS, NOTHING_SEARCHED, sectionReads, sectionsOf, snapshotKey, type Assumed, type Sections, type Snapshot } from "./context-read-parts";
import { FEEDBACK_TERMS, feedbackTerms, hintsOf, selectTerms, TERM_SELECTION, titleOf, type SearchHints } from "./hint-query";
import { START_TAG_WEIGHT } from "./tag-feedback";

const MAX_ROUNDS = 6;

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
  /** The user's marks (last session, setup note shown): bookkeeping, so read afresh every time, never from a snapshot. */
  mark: ContextMark;
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
  /**
   * The hints' search (with the words it searched for: taken once the task title read says the same),
   * the words its best matches' tags add, to search for with it (the tags' feedback; null: none), and
   * that second search.
   */
  private first?: { searched: Searched; key: string };
  private feedback?: { extra: HintTerm[]; match?: string } | null;
  private second?: Searched;
  private matches?: LearningCandidateRow[];
  private recent?: LearningCandidateRow[];
  private vectorWidth: number | null = null;
  private mark: ContextMark = NO_MARK;
  private readonly versions: string[] = [];
  private readonly local: boolean;
  private hinted?: { title: string | null; hints: SearchHints };

  constructor(
    private readonly db: Db,
    private readonly principal: Principal,
    private readonly q: ContextQuery,
    private readonly limit: number,
  ) {
    this.key = snapshotKey(principal.userId, principal.projectIds, q);
    this.local = readsLocally(db);
    this.snapshot = contextCaches().snapshots.get(this.key);
    this.ownerKnown = !hintsNameProject(q);
    const projectId = this.ownerKnown ? null : this.snapshot?.project?.id;
    if (projectId !== undefined) this.owner = { userId: principal.userId, projectId };
  }

  async read(): Promise<ContextReads> {
    for (let round = 0; !this.done(); round++) {
      // Each round learns the owner, then the sections, then the searches: a handful is the most there can be.
      if (round === MAX_ROUNDS) throw new Error("a context's reads did not settle");
      const assumed = this.assume(round);
      this.absorb(await readWithTokenCheck(this.db, this.principal, this.reads(assumed)), assumed);
    }
    const version = this.versions.every((v) => v === this.versions[0]) ? this.versions[0]! : null;
    if (version !== null) contextCaches().snapshots.set(this.key, { version, project: this.project, seed: this.seed!.value, sections: this.sections! });
    const { project, matches, recent, vectorWidth, mark } = this;
    const sections = { ...this.sections!, handoff: this.handoff?.value };
    return { project, seed: this.seed!.value, sections, hints: this.hints(), matches: matches!, recent: recent!, vectorWidth, mark, version };
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
    const title = titleOf((this.sections ?? this.snapshot?.sections)?.memory);
    if (this.hinted?.title !== title) this.hinted = { title, hints: hintsOf(this.q, title) };
    return this.hinted.hints;
  }

  /** What this round may take as known. Recent learnings from the cache in the first two rounds only, so reading ends. */
  private assume(round: number): Assumed {
    const caches = contextCaches();
    const version = round === 0 ? caches.seen.version : this.versions.at(-1)!;
    const trusted = round < 2 ? version : null;
    const snapshot = round === 0 && this.snapshot !== undefined && this.snapshot.version === version;
    const cachedRecent = this.owner && !this.recent ? caches.recent.get(trusted, this.recentKey) : undefined;
    const words = this.hints().terms;
    const chosen = this.first || !words.length ? undefined : this.chooseHere(words);
    return { owner: this.owner, snapshot, readSeed: !this.seed && !snapshot, termsKey: words.join(" "), chosen, version: trusted, cachedRecent };
  }

  /**
   * On this machine, the hints' search expression is chosen here when every word's frequency and the
   * store's size are remembered at the version last seen: no statement counts, and none searches when
   * no word is worth it. On a server, the search chooses in SQL, checking itself what it was told
   * against the version it reads, so no round trip is ever lost to a version that moved.
   */
  private chooseHere(words: string[]): Assumed["chosen"] {
    const { seen } = contextCaches();
    const { terms, knownAt } = this.known(words);
    if (!this.local || knownAt === null || knownAt !== seen.version || seen.storeSize === null) return undefined;
    if (terms.some(([, n]) => n === null)) return undefined;
    return { version: knownAt, match: ftsExpression(selectTerms(words, new Map(terms as [string, number][]), seen.storeSize)) };
  }

  /** Words with the frequencies remembered for them, and the version those hold for (the search checks it). */
  private known(words: string[]): { terms: HintTerm[]; knownAt: string | null } {
    const frequencies = contextCaches().frequencies;
    const knownAt = frequencies.currentVersion;
    return { terms: words.map((t): HintTerm => [t, frequencies.get(knownAt, t) ?? null]), knownAt };
  }

  private searchReads(assumed: Assumed) {
    const { db, owner, limit } = this;
    if (!owner || this.matches || this.second) return undefined;
    const common = { ...owner, limit, selection: TERM_SELECTION, tagWeight: START_TAG_WEIGHT };
    if (this.first && this.feedback?.match) return matchesRead(db, { ...common, match: this.feedback.match });
    if (this.first && this.feedback) {
      return searchRead(db, { ...common, ...this.known(this.feedback.extra.map(([t]) => t)), base: this.first.searched.chosen!, maxTerms: FEEDBACK_TERMS });
    }
    if (assumed.chosen) return assumed.chosen.match ? matchesRead(db, { ...common, match: assumed.chosen.match }) : undefined;
    const words = this.hints().terms;
    return !this.first && words.length ? searchRead(db, { ...common, ...this.known(words) }) : undefined;
  }

  private reads(assumed: Assumed) {
    const { db, q, principal, owner } = this;
    const recent = owner && !this.recent && !assumed.cachedRecent ? recentReads(db, { ...owner, limit: this.limit }) : { personal: undefined, project: undefined };
    const choices = !this.ownerKnown && !assumed.snapshot;
    return {
      meta: metaRead(db),
      // A key lookup in the batch the first round sends anyway: no round trip of its own.
      mark: this.versions.length ? undefined : contextMarkRead(db, { userId: principal.userId }),
      choices: choices ? projectChoicesFor(db, principal, q) : undefined,
      seed: assumed.readSeed ? seedRead(db, { userId: principal.userId }) : undefined,
      ...(owner && !this.sections && !assumed.snapshot ? sectionReads(db, owner, q) : NO_SECTION_READS),
      handoff: owner?.projectId && !this.handoff ? handoffRead(db, { projectId: owner.projectId, userId: owner.userId, branch: q.branch ?? null, sessionId: q.source === "compact" ? (q.sessionId ?? null) : null }) : undefined,
      search: this.searchReads(assumed),
      recentPersonal: recent.personal,
      recentProject: recent.project,
    };
  }

  private absorb(r: Results<ReturnType<ContextReading["reads"]>>, assumed: Assumed): void {
    if (r.mark) this.mark = r.mark;
    const caches = contextCaches();
    const version = r.meta.version;
    this.versions.push(version);
    caches.seen.version = version;
    caches.seen.storeSize = r.meta.storeSize;
    this.vectorWidth = r.meta.vectorWidth;
    if (r.search) for (const [term, n] of r.search.counted) caches.frequencies.set(version, term, n);
    if (assumed.snapshot && this.snapshot!.version === version) this.adopt(this.snapshot!);
    if (assumed.readSeed) this.seed = { value: r.seed };
    if (r.choices) this.choose(r.choices);
    // Reads made for another owner than the one chosen are of no use.
    if (!assumed.owner || assumed.owner.projectId !== this.owner?.projectId) return;
    this.sections ??= sectionsOf(r);
    if (assumed.owner.projectId && !this.handoff) this.handoff = { value: r.handoff };
    const searched = assumed.chosen ? (assumed.chosen.version === version ? (r.search ?? NOTHING_SEARCHED) : undefined) : r.search;
    if (!this.matches) this.absorbSearch(searched, assumed, r.meta.storeSize, version);
    if (!this.recent) this.absorbRecent(r, assumed);
  }

  private adopt(snapshot: Snapshot): void {
    this.project = snapshot.project;
    this.ownerKnown = true;
    this.seed = { value: snapshot.seed };
    this.sections = snapshot.sections;
  }

  /**
   * A search's answer: the hints' (whose best matches' tags then say what the feedback search adds,
   * searched in the next round, in the same one as the sections when the task title was assumed), or
   * the feedback's. The matches are taken once the task title read gives the words searched for.
   */
  private absorbSearch(searched: Searched | undefined, assumed: Assumed, storeSize: number, version: string): void {
    if (searched && this.first) this.second = searched;
    else if (searched) {
      this.first = { searched, key: assumed.termsKey };
      this.feedback = this.feedbackOf(searched, version, storeSize);
    }
    const words = this.hints().terms;
    if (!words.length) this.matches = [];
    if (this.matches || !this.sections || !this.first) return;
    if (this.first.key !== words.join(" ")) return this.forgetSearches();
    const { candidates } = this.first.searched;
    if (this.feedback === null) this.matches = candidates;
    else if (this.second) this.matches = this.second.chosen === null ? candidates : this.second.candidates;
  }

  /** The words the first matches' tags add, with what is known of them; null: none worth searching for (told when every frequency is known). */
  private feedbackOf(first: Searched, version: string, storeSize: number): ContextReading["feedback"] {
    const extra = first.chosen === null ? [] : feedbackTerms(first.candidates, this.hints().terms);
    if (!extra.length) return null;
    const frequencies = contextCaches().frequencies;
    const terms = extra.map((t): HintTerm => [t, frequencies.get(version, t) ?? null]);
    if (terms.some(([, n]) => n === null)) return { extra: terms };
    const added = ftsExpression(selectTerms(extra, new Map(terms as [string, number][]), storeSize).slice(0, FEEDBACK_TERMS));
    return added ? { extra: terms, match: `${first.chosen} OR ${added}` } : null;
  }

  private forgetSearches(): void {
    this.first = undefined;
    this.feedback = undefined;
    this.second = undefined;
    this.matches = undefined;
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
      this.forgetSearches();
    }
  }
}

export function readContext(db: Db, principal: Principal, q: ContextQuery, limit: number): Promise<ContextReads> {
  return new ContextReading(db, principal, q, limit).read();
}
