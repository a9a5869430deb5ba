import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { metaRead, readableProjectsRead } from "../../db/queries/context";
import { servedRead } from "../../db/queries/session-served";
import { queryEmbedder } from "../../embeddings/query-embedder";
import type { ContextLearning } from "../context-types";
import { promptCandidates } from "../gather/candidate-limit";
import { readWithTokenCheck } from "../read/checked-reads";
import { sessionProject, sessionProjectReads, sessionTermsOf } from "../project/choose-project";
import { packSections } from "../pack/pack-context";
import type { PromptQuery } from "./prompt-query";
import { promptCounts, promptMatch, promptWords, readPromptCandidates, relevantUnseen } from "./prompt-learnings";
import { indexAt, indexChangesRead, searchIndex } from "../search/index-sync";
import { learningItems } from "../pack/learning-line";
import type { SectionDraft } from "../pack/render-sections";
import { compactedSince, recentlyServed } from "../cache/recent-sessions";
import { recordServed } from "../serve/served-log";
import { countTokensByLine } from "../pack/tokenizer";

/** What the prompt stage answers: the context (empty when nothing new is relevant) and what it holds. */
export type PromptContext = {
  context: string;
  tokenEstimate: number;
  budget: number;
  learningsShown: number;
  learningIds: string[];
  project: { slug: string; name: string } | null;
};

/** The learnings as one section, packed into the budget and the character limit; nothing fits → empty. */
export function buildPromptContext(learnings: ContextLearning[], limits: { budget: number; maxChars: number; now: Date }, count: (text: string) => number) {
  const draft: SectionDraft = {
    name: "learnings",
    header: (shown) => `## Learnings relevant to this prompt (${shown} not given earlier in this session)`,
    items: learningItems(learnings, limits.now),
    omitted: (n) => `${n} more relevant ${n === 1 ? "learning" : "learnings"}: \`baton learnings\``,
  };
  const packed = packSections(learnings.length ? [draft] : [], { ...limits, count });
  const section = packed.sections[0];
  if (!section?.included) return { context: "", tokenEstimate: 0, shown: [] as ContextLearning[] };
  return { context: packed.text, tokenEstimate: packed.tokenEstimate, shown: (packed.kept.learnings ?? []).map((i) => learnings[i]!) };
}

/**
 * The prompt stage (SPEC §3): learnings relevant to the prompt that this session (the user's, by the
 * host's session id) has not been given, at its start or at an earlier prompt, within the budget.
 * What it gives is recorded for the session (buffered bookkeeping, like the start's).
 */
export async function promptContext(db: Db, principal: Principal, q: PromptQuery, now = new Date(), record = true): Promise<PromptContext> {
  // One batch before the search: the token's check (when taken as remembered), the state, the
  // project, what the session was given (the table; below, what this instance gave it lately, maybe not
  // written or synced back yet), and the prompt's word counts (in what the user may read) or, with the learnings'
  // index in memory, the changes it has not applied (it counts the words and searches, no statement).
  // After a compaction this instance served, what the table holds from before it is forgotten, even
  // while the bookkeeping that deletes it is still buffered.
  const since = compactedSince(principal.userId, q.sessionId);
  const held = searchIndex(db);
  const words = promptWords(db, principal, q.q, held);
  const after = held?.changed ?? 0;
  const r = await readWithTokenCheck(db, principal, {
    changes: held ? indexChangesRead(db, held) : undefined,
    readable: held ? readableProjectsRead(db, principal) : undefined,
    meta: metaRead(db),
    ...sessionProjectReads(db, principal, q),
    served: servedRead(db, { userId: principal.userId, sessionId: q.sessionId, since }),
    counts: words.counts,
  });
  const project = sessionProject(r, principal, q);
  const served = r.served;
  const current = r.changes ? indexAt(db, after, r.changes, r.meta.learningsChanged) : null;
  const index = current && r.readable ? { index: current, readable: r.readable } : null;
  const owner = { userId: principal.userId, projectId: project?.id ?? null };
  const counts = await promptCounts(db, principal, words.terms, r.counts, index);
  const matched = promptMatch(q.q, words.terms, counts, sessionTermsOf(r, principal, q));
  const projectOut = project ? { slug: project.slug, name: project.name } : null;
  const empty: PromptContext = { context: "", tokenEstimate: 0, budget: q.budget, learningsShown: 0, learningIds: [], project: projectOut };
  if (project?.injectionPaused) return empty;
  for (const id of recentlyServed(principal.userId, q.sessionId)) served.add(id);
  const limit = promptCandidates(q.budget);
  const found = await readPromptCandidates(db, { owner, reader: principal }, matched, { limit, seen: served.size, embedQuery: queryEmbedder(), vectorWidth: r.meta.vectorWidth, index });
  const relevant = relevantUnseen(found, matched.minScore, { limit, exclude: served, reader: owner.userId, sessionMinScore: matched.session?.minScore });
  const built = buildPromptContext(relevant, { budget: q.budget, maxChars: q.maxChars, now }, countTokensByLine);
  if (!built.shown.length) return empty;
  const learningIds = built.shown.map((l) => l.id);
  // A HEAD request changes nothing: what it would give is not recorded as given.
  if (record) recordServed(db, {
    userId: principal.userId,
    projectId: project?.id ?? null,
    tokenId: principal.tokenId,
    source: "prompt",
    sessionId: q.sessionId,
    budget: q.budget,
    tokenEstimate: built.tokenEstimate,
    learningsShown: learningIds.length,
    learningIds,
    at: now,
  });
  return { ...empty, context: built.context, tokenEstimate: built.tokenEstimate, learningsShown: learningIds.length, learningIds };
}

/** The answer's body in the format asked for; `claude` with nothing to add is `{}`, which Claude Code takes as nothing. */
export function promptBody(result: PromptContext, format: PromptQuery["format"]): { body: string; contentType: string } {
  if (format === "text") return { body: result.context, contentType: "text/plain; charset=utf-8" };
  if (format === "claude") {
    const hook = result.context ? { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: result.context } } : {};
    return { body: JSON.stringify(hook), contentType: "application/json" };
  }
  return { body: JSON.stringify({ ok: true, ...result }), contentType: "application/json" };
}
