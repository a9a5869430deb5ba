import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { activeTaskIdFor, countQueuedSessions, matchersForUser, pendingProposalsFor } from "../db/queries/context";
import { nearestLearnings, vectorTableWidth } from "../db/queries/embeddings";
import { contextLearnings, pinnedLearnings } from "../db/queries/context-candidates";
import { countAllLearnings, countContextLearnings, documentFrequencies } from "../db/queries/learning-counts";
import { findProjectForUser, type MemberProject } from "../db/queries/projects";
import type { Owner } from "../db/queries/scope";
import { findSeed } from "../db/queries/seeds";
import { findTaskMemory } from "../db/queries/tasks";
import { requireProject } from "../projects/projects";
import { contextHandoff } from "./context-handoff";
import type { ContextData, ContextIdentity } from "./context-types";
import type { ContextQuery } from "./context-query";
import { ftsExpression } from "../learnings/fts-query";
import { hintTerms, selectTerms } from "./hint-query";
import { directoryName, matchProject } from "./match-project";
import { fuseMatches } from "./fuse-rankings";
import { rankLearnings } from "./rank-learnings";
import { START_TAG_WEIGHT, withTagFeedback } from "./tag-feedback";

/**
 * How many learnings to read: as many as the budget could possibly show (a learning's line is rarely
 * under 15 tokens), never more than 200. The packer decides how many are shown.
 */
function candidateLimit(budget: number): number {
  return Math.min(200, Math.max(20, Math.ceil(budget / 15)));
}
const LISTED_PROPOSALS = 20;

/** The project named, else the one a matcher finds for cwd/remote, else one named like the directory; null: personal context. */
export async function resolveProject(db: Db, principal: Principal, q: Pick<ContextQuery, "project" | "cwd" | "remote">): Promise<MemberProject | null> {
  if (q.project) return requireProject(db, principal, q.project);
  const slug =
    matchProject(await matchersForUser(db, { userId: principal.userId }), { cwd: q.cwd ?? null, remote: q.remote ?? null }) ??
    (q.cwd ? directoryName(q.cwd) : null);
  if (!slug) return null;
  const project = await findProjectForUser(db, { userId: principal.userId, slug });
  if (!project || (principal.projectIds && !principal.projectIds.includes(project.id))) return null;
  return project;
}

function identityOf(raw: Record<string, unknown> | undefined): ContextIdentity | null {
  if (!raw || typeof raw.aiName !== "string" || typeof raw.principalName !== "string") return null;
  const prefs = (raw.preferences ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return {
    aiName: raw.aiName,
    principalName: raw.principalName,
    catchphrase: str(raw.catchphrase),
    voiceId: str(raw.voiceId),
    preferences: { responseStyle: str(prefs.responseStyle), timezone: str(prefs.timezone), locale: str(prefs.locale) },
  };
}

/** Learnings nearest to the hints' meaning; nothing when the embedder or the vector table is not there. */
export async function nearestTo(
  db: Db,
  embedQuery: (text: string) => Promise<number[] | null>,
  text: string,
  scope: Owner,
): Promise<Awaited<ReturnType<typeof nearestLearnings>>> {
  if (!text || !(await vectorTableWidth(db))) return [];
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

type Sections = Awaited<ReturnType<typeof loadSections>>;
type Hints = { terms: string[]; text: string; match: string | null };

/** The active task, then every section's data at once: seed, task memory, handoff, queue, proposals. */
async function loadSections(db: Db, owner: Owner, project: MemberProject | null, q: ContextQuery) {
  const taskId = q.task ?? (project ? await activeTaskIdFor(db, { userId: owner.userId, projectId: project.id }) : undefined);
  const [seed, memory, handoff, queued, proposals] = await Promise.all([
    findSeed(db, { userId: owner.userId }),
    project && taskId ? findTaskMemory(db, { projectId: project.id, taskId }) : undefined,
    project ? contextHandoff(db, project.id, q) : undefined,
    project ? countQueuedSessions(db, { projectId: project.id }) : 0,
    pendingProposalsFor(db, { ...owner, limit: LISTED_PROPOSALS }),
  ]);
  return { taskId, seed, memory, handoff, queued, proposals };
}

/** The words to search for: the hints' words, the common ones left out by how often the store has them. */
async function readHints(db: Db, q: ContextQuery, memory: Sections["memory"]): Promise<Hints> {
  // The task memory's first line (its title) says what the session is about as well as any hint.
  const taskTitle = memory?.markdown.split("\n").find((l) => l.trim())?.replace(/^#+\s*/, "");
  const terms = hintTerms({ q: q.q, task: [q.task, taskTitle].filter(Boolean).join(" "), branch: q.branch, cwd: q.cwd });
  const [frequencies, storeSize] = terms.length ? await Promise.all([documentFrequencies(db, { terms }), countAllLearnings(db)]) : [new Map<string, number>(), 0];
  return {
    terms,
    text: [q.q, q.task, taskTitle, q.branch].filter(Boolean).join(" · "),
    match: ftsExpression(selectTerms(terms, frequencies, storeSize)),
  };
}

/** Learnings matching the hints (by words, and by meaning where an embedder is there), then recent ones to fill, ranked. */
async function rankedLearnings(
  db: Db,
  owner: Owner,
  hints: Hints,
  options: { limit: number; embedQuery?: (text: string) => Promise<number[] | null> },
) {
  const { limit, embedQuery } = options;
  const [firstMatches, nearest, learningCounts, pinned] = await Promise.all([
    hints.match ? contextLearnings(db, { ...owner, match: hints.match, limit, tagWeight: START_TAG_WEIGHT }) : [],
    hints.terms.length && embedQuery ? nearestTo(db, embedQuery, hints.text, owner) : [],
    countContextLearnings(db, owner),
    pinnedLearnings(db, owner),
  ]);
  const bm25 = hints.match ? await withTagFeedback(db, owner, { match: hints.match, terms: hints.terms, limit }, firstMatches) : [];
  // Recent learnings only fill what the matches leave.
  const recent = bm25.length + nearest.length < limit ? await contextLearnings(db, { ...owner, match: null, limit }) : [];
  const matches = fuseMatches(bm25, nearest);
  // The matches first; recent confirmed learnings fill the budget they leave (a paraphrase that
  // shares no word with the hints can still be among them).
  const matched = new Set(matches.map((l) => l.id));
  const ranked = rankLearnings([...matches, ...recent.filter((l) => !matched.has(l.id))]);
  // Pinned ones lead, whatever the hints: the packer keeps them first and says so when they do not fit.
  const first = pinned.map((l) => ({ id: l.id, kind: l.kind, content: l.content, confirmed: l.confirmed, relevance: null, pinned: true }));
  return { ...ranked, learnings: [...first, ...ranked.learnings], learningCounts };
}

function sessionStateOf(seed: Sections["seed"], queuedSessions: number): ContextData["state"] {
  const state = (seed?.state ?? {}) as Record<string, unknown>;
  const lastSessionAt = typeof state.lastSessionAt === "string" ? new Date(state.lastSessionAt) : null;
  return {
    lastSessionAt: lastSessionAt && !Number.isNaN(lastSessionAt.getTime()) ? lastSessionAt : null,
    activeProjects: Array.isArray(state.activeProjects) ? state.activeProjects.map(String) : [],
    checkpointRef: typeof state.checkpointRef === "string" ? state.checkpointRef : null,
    queuedSessions,
    seedVersion: seed?.version ?? null,
  };
}

/** Reads everything a context is made from. Reads only: nothing here writes. */
export async function gatherContext(
  db: Db,
  principal: Principal,
  q: ContextQuery,
  env: { now: Date; dashboardUrl: string; embedQuery?: (text: string) => Promise<number[] | null> },
): Promise<{ data: ContextData; project: MemberProject | null }> {
  const project = await resolveProject(db, principal, q);
  const owner: Owner = { userId: principal.userId, projectId: project?.id ?? null };
  const { taskId, seed, memory, handoff, queued, proposals } = await loadSections(db, owner, project, q);
  const hints = await readHints(db, q, memory);
  const learnings = await rankedLearnings(db, owner, hints, { limit: candidateLimit(q.budget), embedQuery: env.embedQuery });
  return {
    project,
    data: {
      now: env.now,
      dashboardUrl: env.dashboardUrl,
      identity: identityOf(seed?.identity),
      project: project ? { slug: project.slug, name: project.name } : null,
      activeTask: memory && taskId ? { taskId, markdown: memory.markdown, updatedAt: memory.updatedAt, imported: q.taskImported === taskId } : null,
      unmapped: !q.project && !project && (q.cwd || q.remote) ? { remote: q.remote ?? null, cwd: q.cwd ?? null } : null,
      handoff: handoff ?? null,
      learnings: learnings.learnings,
      learningsRanked: learnings.ranked,
      learningCounts: learnings.learningCounts,
      proposals: proposals.items,
      proposalCount: proposals.total,
      state: sessionStateOf(seed, queued),
    },
  };
}
