import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { contextVersion, metaRead } from "../../db/queries/context";
import { readWithTokenCheck } from "../read/checked-reads";
import { packContext, type BuiltContext } from "../pack/build-context";
import { etagOf } from "../../api/etag";
import { RevalidatingCache } from "../../process/bounded-cache";
import type { ContextQuery } from "../context-query";
import { gatherContext } from "../gather/gather-context";
import { recordServed } from "./served-log";
import type { SearchPath } from "../../db/queries/context-candidates";
import type { MemberProject } from "../../db/queries/projects";
import type { SessionTopic } from "../../db/queries/session-served";
import { countTokensByLine } from "../pack/tokenizer";
import { queryEmbedder } from "../../embeddings/query-embedder";
import { processWide } from "../../process/process-state";

export type ServedContext = {
  body: string;
  contentType: string;
  etag: string;
  built: BuiltContext;
  project: { id: string; slug: string; name: string } | null;
  /** The project as chosen, which the session is then in (recorded per session id). */
  chosen: MemberProject | null;
  /** The words the start searched for (what the session is about), recorded for its prompts. */
  terms: SessionTopic;
  shownLearningIds: string[];
  /** Whether this answer came from the cache (sent as the x-baton-cache header). */
  cached: boolean;
  /** Where its learnings were searched (sent as the x-baton-search header: memory, sql or none). */
  searched: SearchPath | null;
  /** The project's owners paused injection: the context is empty and nothing is recorded as served. */
  paused: boolean;
};

/** What a paused project's sessions get: nothing, and the fields that say so. */
const pausedContext = (budget: number): BuiltContext => ({
  context: "",
  tokenEstimate: 0,
  budget,
  needsSetup: false,
  proposalCount: 0,
  learningsShown: 0,
  learningsTotal: 0,
  pinnedOmitted: 0,
  sections: [],
});

/**
 * The context shows the setup note, which is shown once: such an answer is recorded as showing it and
 * never kept for a question asked again.
 */
const showsSetupNote = (built: BuiltContext) => built.sections.some((s) => s.name === "setup" && s.included);

/** The finest unit of the context's relative times is the minute ("25 min ago"): refreshing once a minute is enough. */
const TIME_BUCKET_MS = 60_000;

/** A render and the state's version it was made from (null: the state moved while it was read). */
type Rendered = { served: ServedContext; version: string | null };

/** Rendered answers an instance keeps, for a question asked again unchanged (MCP clients, retries). */
export const RESPONSE_CACHE_LIMIT = 500;
const cache = processWide(
  "rendered contexts",
  () => new RevalidatingCache<string, Rendered>(RESPONSE_CACHE_LIMIT, "context", (r) => (showsSetupNote(r.served.built) ? null : r.version)),
);

/** The response cache, for the test that it stays bounded. */
export function responseCache(): RevalidatingCache<string, Rendered> {
  return cache;
}

/** The state's version, with the token's check when it was taken as remembered (principal.tokenCheck). */
async function versionAndToken(db: Db, principal: Principal): Promise<string> {
  if (!principal.tokenCheck) return contextVersion(db);
  const { meta } = await readWithTokenCheck(db, principal, { meta: metaRead(db) });
  return meta.version;
}

/**
 * The context for a request in the format asked for, from the cache when the state and query are
 * unchanged. Records the bookkeeping (buffered) either way, unless told not to (`record: false`: a HEAD
 * request, which changes nothing: no session starts, the setup note is not spent). Used by
 * GET /api/context and MCP.
 */
export async function serveContext(db: Db, principal: Principal, q: ContextQuery, env: { dashboardUrl: string; record?: boolean }): Promise<ServedContext> {
  const now = Date.now();
  const key = JSON.stringify([principal.userId, principal.projectIds, q, env.dashboardUrl]);
  // A kept answer is checked with one small read; a question asked once is rendered without it (the
  // render reads the version). In a newer time bucket the relative times ("2 h ago") may read
  // differently: the kept answer is served once more while a new one is rendered.
  const { value: rendered, cached } = await cache.lookup(key, {
    load: () => render(db, principal, q, env, new Date(now)),
    version: () => versionAndToken(db, principal),
    period: Math.floor(now / TIME_BUCKET_MS),
  });
  const served = cached ? { ...rendered.served, cached } : rendered.served;
  if (env.record === false) return served;
  const session = q.sessionId ? { sessionId: q.sessionId, startsSession: true, chosen: served.chosen, terms: served.terms } : null;
  // A paused project's session is still in it (its handoffs go there): only that is recorded.
  if (served.paused) {
    if (session) recordServed(db, { ...unserved(principal, q, now), ...session, projectId: served.project?.id ?? null, served: false });
    return served;
  }
  recordServed(db, {
    ...session,
    userId: principal.userId,
    projectId: served.project?.id ?? null,
    tokenId: principal.tokenId,
    source: q.source ?? null,
    sessionId: q.sessionId ?? null,
    budget: q.budget,
    tokenEstimate: served.built.tokenEstimate,
    learningsShown: served.built.learningsShown,
    learningIds: served.shownLearningIds,
    at: new Date(now),
    ...(showsSetupNote(served.built) ? { setupNote: true as const } : {}),
  });
  return served;
}

/** A record of a start that served nothing. */
const unserved = (principal: Principal, q: ContextQuery, now: number) => ({
  userId: principal.userId,
  tokenId: principal.tokenId,
  source: q.source ?? null,
  budget: q.budget,
  tokenEstimate: 0,
  learningsShown: 0,
  learningIds: [],
  at: new Date(now),
});

async function render(db: Db, principal: Principal, q: ContextQuery, env: { dashboardUrl: string }, now: Date): Promise<Rendered> {
  const { data, project, version, terms, searched } = await gatherContext(db, principal, q, { now, dashboardUrl: env.dashboardUrl, embedQuery: queryEmbedder() });
  const paused = project?.injectionPaused === true;
  const { built, shownLearningIds } = paused
    ? { built: pausedContext(q.budget), shownLearningIds: [] }
    : packContext(data, { budget: q.budget, maxChars: q.maxChars, mode: q.mode, source: q.source }, countTokensByLine);
  const projectOut = project ? { slug: project.slug, name: project.name } : null;
  let body: string;
  let etag: string;
  if (q.format === "json") {
    const core = { ok: true, injection: paused ? "paused" : "on", ...built, project: projectOut };
    etag = etagOf(JSON.stringify(core));
    body = JSON.stringify({ ...core, etag });
  } else {
    body = q.format === "text" ? built.context : JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: built.context } });
    etag = etagOf(body);
  }
  const served = {
    body,
    etag,
    contentType: q.format === "text" ? "text/plain; charset=utf-8" : "application/json",
    built,
    project: project ? { id: project.id, ...projectOut! } : null,
    chosen: project,
    terms,
    shownLearningIds,
    cached: false,
    searched: paused ? null : searched,
    paused,
  };
  return { served, version };
}
