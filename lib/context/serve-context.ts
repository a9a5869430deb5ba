import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { contextVersion } from "../db/queries/context";
import { buildContext, etagOf, type BuiltContext } from "./build-context";
import { ContextCache, TIME_BUCKET_MS } from "./context-cache";
import type { ContextQuery } from "./context-query";
import { gatherContext } from "./gather-context";
import { recordServed } from "./served-log";
import { countTokens } from "./tokenizer";
import { queryEmbedder } from "../embeddings/query-embedder";

export type ServedContext = {
  body: string;
  contentType: string;
  etag: string;
  built: BuiltContext;
  project: { id: string; slug: string; name: string } | null;
  shownLearningIds: string[];
  /** Whether this answer came from the cache (sent as the x-baton-cache header). */
  cached: boolean;
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

type Entry = { version: string; bucket: number; served: Promise<ServedContext>; refreshing: boolean };

const holder = globalThis as unknown as { __batonContextCache?: ContextCache<Entry> };
holder.__batonContextCache ??= new ContextCache<Entry>(500);
const cache = holder.__batonContextCache;

/**
 * The context for a request in the format asked for, from the cache when the state and query are
 * unchanged. Records the bookkeeping (buffered) either way. Used by GET /api/context and MCP.
 */
export async function serveContext(db: Db, principal: Principal, q: ContextQuery, env: { dashboardUrl: string }): Promise<ServedContext> {
  const now = Date.now();
  const version = await contextVersion(db);
  const bucket = Math.floor(now / TIME_BUCKET_MS);
  const key = JSON.stringify([principal.userId, principal.projectIds, q, env.dashboardUrl]);
  const entry = cache.get(key);
  let served: ServedContext;
  if (entry && entry.version === version) {
    // Same state. In a newer time bucket the relative times ("2 h ago") may read differently: serve
    // what we have and render anew in the background, once.
    if (entry.bucket !== bucket && !entry.refreshing) {
      entry.refreshing = true;
      const next = render(db, principal, q, env, new Date(now));
      next.then(
        () => cache.set(key, { version, bucket, served: next, refreshing: false }),
        (error: unknown) => {
          entry.refreshing = false;
          console.warn("baton: refreshing a cached context failed", error);
        },
      );
    }
    served = { ...(await entry.served), cached: true };
  } else {
    // Concurrent requests for the same key share one render (the promise is cached, not its result).
    const rendering = render(db, principal, q, env, new Date(now));
    cache.set(key, { version, bucket, served: rendering, refreshing: false });
    rendering.catch(() => cache.delete(key));
    served = await rendering;
  }
  if (served.paused) return served;
  recordServed(db, {
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
  });
  return served;
}

async function render(db: Db, principal: Principal, q: ContextQuery, env: { dashboardUrl: string }, now: Date): Promise<ServedContext> {
  const { data, project } = await gatherContext(db, principal, q, { now, dashboardUrl: env.dashboardUrl, embedQuery: queryEmbedder() });
  const paused = project?.injectionPaused === true;
  const built = paused ? pausedContext(q.budget) : buildContext(data, { budget: q.budget, maxChars: q.maxChars, mode: q.mode, source: q.source }, countTokens);
  const projectOut = project ? { slug: project.slug, name: project.name } : null;
  let body: string;
  let etag: string;
  if (q.format === "json") {
    const core = { ok: true, injection: paused ? "paused" : "on", ...built, project: projectOut };
    etag = await etagOf(JSON.stringify(core));
    body = JSON.stringify({ ...core, etag });
  } else {
    body = q.format === "text" ? built.context : JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: built.context } });
    etag = await etagOf(body);
  }
  return {
    body,
    etag,
    contentType: q.format === "text" ? "text/plain; charset=utf-8" : "application/json",
    built,
    project: project ? { id: project.id, ...projectOut! } : null,
    shownLearningIds: data.learnings.slice(0, built.learningsShown).map((l) => l.id),
    cached: false,
    paused,
  };
}
