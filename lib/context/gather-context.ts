import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { nearestLearnings } from "../db/queries/embeddings";
import type { MemberProject } from "../db/queries/projects";
import type { SessionTopic } from "../db/queries/session-served";
import type { Owner } from "../db/queries/scope";
import { readContext, type ContextReads } from "./context-reads";
import type { ContextData } from "./context-types";
import { identityOf } from "./context-identity";
import type { ContextQuery } from "./context-query";
import { lastSessionSeenFrom, withRecent } from "./context-marks";
import { fuseMatches } from "./fuse-rankings";
import { contextCaches } from "./context-caches";
import { contextLearning, rankLearnings } from "./rank-learnings";
import { sessionTerms } from "./recent-sessions";
import { feedbackTerms } from "./hint-query";

/**
 * How many learnings to read: as many as the budget could possibly show (a learning's line is rarely
 * under 15 tokens), never more than 200. The packer decides how many are shown.
 */
function candidateLimit(budget: number): number {
  return Math.min(200, Math.max(20, Math.ceil(budget / 15)));
}

/**
 * Learnings nearest to a text's meaning; nothing without an embedder or a vector table (`vectorWidth`,
 * read with the request's other reads: metaRead).
 */
export async function nearestTo(
  db: Db,
  embedQuery: ((text: string) => Promise<number[] | null>) | undefined,
  text: string,
  scope: Owner,
  vectorWidth: number | null,
): Promise<Awaited<ReturnType<typeof nearestLearnings>>> {
  if (!text || !embedQuery || !vectorWidth) return [];
  const vector = await embedQuery(text);
  if (!vector) return [];
  try {
    return await nearestLearnings(db, { vector, ...scope, k: 50 });
  } catch (error) {
    // A vector of the wrong width (the model changed, the worker has not caught up): full text alone.
    console.warn(`baton: vector search skipped (${error instanceof Error ? error.message : error})`);
    return [];
  }
}

/** The matches (by words, and by meaning where an embedder is there), then recent ones to fill, ranked. */
async function rankedLearnings(db: Db, reads: ContextReads, options: { owner: Owner; limit: number; embedQuery?: (text: string) => Promise<number[] | null> }) {
  const { hints, matches: bm25 } = reads;
  const nearest = hints.terms.length ? await nearestTo(db, options.embedQuery, hints.text, options.owner, reads.vectorWidth) : [];
  // Recent learnings only fill what the matches leave.
  const recent = bm25.length + nearest.length < options.limit ? reads.recent : [];
  const matches = fuseMatches(bm25, nearest);
  // The matches first; recent confirmed learnings fill the budget they leave (a paraphrase that
  // shares no word with the hints can still be among them).
  const matched = new Set(matches.map((l) => l.id));
  const reader = options.owner.userId;
  const ranked = rankLearnings([...matches, ...recent.filter((l) => !matched.has(l.id))], reader);
  // Pinned ones lead, whatever the hints: the packer keeps them first and says so when they do not fit.
  const first = reads.sections.pinned.map((l) => contextLearning(l, reader, null, true));
  return { ...ranked, learnings: [...first, ...ranked.learnings] };
}

/** The later of two times, either missing. */
const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * `lastSession`: the user's last session as Baton saw it (a start served, a handoff posted), or as the
 * seed imported it from before, whichever is later.
 */
function sessionStateOf(seed: ContextReads["seed"], queuedSessions: number, lastSession: Date | null): ContextData["state"] {
  const state = (seed?.state ?? {}) as Record<string, unknown>;
  const imported = typeof state.lastSessionAt === "string" ? new Date(state.lastSessionAt) : null;
  return {
    lastSessionAt: later(imported && !Number.isNaN(imported.getTime()) ? imported : null, lastSession),
    activeProjects: Array.isArray(state.activeProjects) ? state.activeProjects.map(String) : [],
    checkpointRef: typeof state.checkpointRef === "string" ? state.checkpointRef : null,
    queuedSessions,
    seedVersion: seed?.version ?? null,
  };
}

/**
 * Reads everything a context is made from (lib/context/context-reads.ts: usually one batch). Reads
 * only: nothing here writes. `version`: the state's version the reads saw, null when it moved meanwhile.
 */
export async function gatherContext(
  db: Db,
  principal: Principal,
  q: ContextQuery,
  env: { now: Date; dashboardUrl: string; embedQuery?: (text: string) => Promise<number[] | null> },
): Promise<{ data: ContextData; project: MemberProject | null; version: string | null; terms: SessionTopic }> {
  const limit = candidateLimit(q.budget);
  const reads = await readContext(db, principal, q, limit);
  const { project, seed, sections } = reads;
  const owner = { userId: principal.userId, projectId: project?.id ?? null };
  const learnings = await rankedLearnings(db, reads, { owner, limit, embedQuery: env.embedQuery });
  const memory = sections.memory;
  const mark = withRecent(principal.userId, reads.mark, env.now.getTime());
  const identity = identityOf(seed?.identity);
  // What the session is about, for its prompts: the hint words as the search chose them, by the frequencies its reads counted.
  const { frequencies, seen } = contextCaches();
  const terms = sessionTerms(reads.hints.terms, feedbackTerms(reads.matches, reads.hints.terms), (w) => frequencies.get(frequencies.currentVersion, w), seen.storeSize);
  return {
    project,
    version: reads.version,
    terms,
    data: {
      now: env.now,
      dashboardUrl: env.dashboardUrl,
      identity,
      setupNote: identity === null && mark.setupNoteAt === null,
      project: project ? { slug: project.slug, name: project.name } : null,
      // CLAUDE.local.md's import is read as instructions, so it counts only for a memory the user wrote themself
      // (baton task start imports no other); anyone else's is carried here, quoted.
      activeTask: memory ? { ...memory, imported: memory.bySelf && q.taskImported === memory.taskId } : null,
      unmapped: !q.project && !project && (q.cwd || q.remote) ? { remote: q.remote ?? null, cwd: q.cwd ?? null } : null,
      handoff: sections.handoff ?? null,
      learnings: learnings.learnings,
      learningsRanked: learnings.ranked,
      learningCounts: sections.counts,
      proposals: sections.proposals.items,
      proposalCount: sections.proposals.total,
      state: sessionStateOf(seed, sections.queued, lastSessionSeenFrom(mark, q.sessionId)),
    },
  };
}
