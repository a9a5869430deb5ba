import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import type { SearchPath } from "../../db/queries/context-candidates";
import type { MemberProject } from "../../db/queries/projects";
import type { SessionTopic } from "../../db/queries/session-served";
import { startCandidates } from "./candidate-limit";
import { readContext, type ContextReads } from "../read/read-context";
import type { ContextData } from "../context-types";
import { identityOf } from "./identity";
import type { ContextQuery } from "../context-query";
import { lastSessionSeenFrom, withRecent } from "./marks";
import { nearestTo } from "../read/nearest";
import { rankStart } from "../rank/rank-start";
import { contextCaches, READABLE_SIZE, readerWord } from "../read/caches";
import { sessionTerms } from "../cache/recent-sessions";
import { feedbackTerms } from "../hints/hint-query";

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
 * Reads everything a context is made from (lib/context/read/read-context.ts: usually one batch). Reads
 * only: nothing here writes. `version`: the state's version the reads saw, null when it moved meanwhile.
 */
export async function gatherContext(
  db: Db,
  principal: Principal,
  q: ContextQuery,
  env: { now: Date; dashboardUrl: string; embedQuery?: (text: string) => Promise<number[] | null> },
): Promise<{ data: ContextData; project: MemberProject | null; version: string | null; terms: SessionTopic; searched: SearchPath | null }> {
  const limit = startCandidates(q.budget);
  const reads = await readContext(db, principal, q, limit);
  const { project, seed, sections } = reads;
  const owner = { userId: principal.userId, projectId: project?.id ?? null };
  // The nearest by meaning wait for the embedder: read after the batches, then everything is ranked at once.
  const nearest = reads.hints.terms.length ? await nearestTo(db, env.embedQuery, reads.hints.text, owner, reads.vectorWidth) : [];
  const learnings = rankStart({ matches: reads.matches, nearest, recent: reads.recent, pinned: sections.pinned }, { reader: owner.userId, limit });
  const memory = sections.memory;
  const mark = withRecent(principal.userId, reads.mark, env.now.getTime());
  const identity = identityOf(seed?.identity);
  // What the session is about, for its prompts: the hint words as the search chose them, by the frequencies its reads counted.
  const { frequencies } = contextCaches();
  const at = frequencies.currentVersion;
  const terms = sessionTerms(reads.hints.terms, feedbackTerms(reads.matches, reads.hints.terms), (w) => frequencies.get(at, readerWord(principal, w)), frequencies.get(at, readerWord(principal, READABLE_SIZE)) ?? null);
  return {
    project,
    version: reads.version,
    terms,
    searched: reads.searched,
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
