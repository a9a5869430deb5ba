import type { HeldoutScenario, Scenario } from "./dataset";

export type Api = (method: string, url: string, body?: unknown) => Promise<{ status: number; json: unknown; text: string }>;
export type ContextJson = { context: string; tokenEstimate: number; learningsShown: number; learningsTotal: number };

// How often a rate-limited request is tried again before its 429 is taken as the answer.
const MAX_RETRIES = 20;

/** A JSON client with the bench token that waits out rate limits (429 + Retry-After). */
export function api(baseUrl: string, token: string): Api {
  return async (method, url, body) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(baseUrl + url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < MAX_RETRIES) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        await new Promise((r) => setTimeout(r, (Number.isFinite(wait) && wait > 0 ? wait : 1) * 1000));
        continue;
      }
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON; callers look at text
      }
      return { status: res.status, json, text };
    }
  };
}

export function expectStatus(res: { status: number; text: string }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
}

/** The context request the CLI would make at this scenario's session start. */
export function contextUrl(s: Scenario, budget: number, maxChars?: number) {
  const params = new URLSearchParams({ project: s.project, branch: s.branch, q: s.q, budget: String(budget) });
  if (s.task) params.set("task", s.task);
  if (maxChars) params.set("maxChars", String(maxChars));
  return `/api/context?${params}`;
}

/**
 * The context request `baton hook session-start` makes for this session (cli/src/hooks/session-start.ts:
 * project, mode, source, sessionId, cwd, branch, remote, the last three commit subjects as q, the task
 * pinned and imported by `baton task start`), with `format=json` to read the figures and a budget.
 */
export function sessionStartUrl(s: HeldoutScenario, sessionId: string, budget: number) {
  const params = new URLSearchParams({ project: s.project, format: "json", mode: "full", source: "startup", sessionId, cwd: s.cwd, branch: s.branch, remote: s.remote });
  params.set("q", s.subjects.slice(0, 3).join(" · "));
  if (s.task) {
    params.set("task", s.task);
    params.set("taskImported", s.task);
  }
  params.set("budget", String(budget));
  return `/api/context?${params}`;
}

/** The prompt stage's request for the session's first prompt (SPEC §3, the prompt stage). */
export function promptUrl(s: HeldoutScenario, sessionId: string, budget: number) {
  const params = new URLSearchParams({ sessionId, project: s.project, q: s.prompt ?? "", budget: String(budget), format: "json" });
  return `/api/context/prompt?${params}`;
}

/** The prompt stage's answer, or null when the server has no such route (404). */
export async function getPromptContext(call: Api, url: string): Promise<ContextJson | null> {
  const res = await call("GET", url);
  if (res.status === 404) return null;
  expectStatus(res, 200, `GET ${url}`);
  const body = res.json as Partial<ContextJson>;
  if (typeof body.context !== "string" || typeof body.tokenEstimate !== "number") {
    throw new Error(`unexpected prompt-stage response: ${res.text.slice(0, 500)}`);
  }
  return body as ContextJson;
}

export async function getContext(call: Api, url: string): Promise<ContextJson> {
  const res = await call("GET", url);
  if (res.status === 404) {
    throw new Error(`GET /api/context answered 404 (${res.text.slice(0, 200)}): the build predates the context route; rebuild and retry`);
  }
  expectStatus(res, 200, `GET ${url}`);
  const body = res.json as Partial<ContextJson>;
  if (typeof body.context !== "string" || typeof body.tokenEstimate !== "number") {
    throw new Error(`unexpected context response: ${res.text.slice(0, 500)}`);
  }
  return body as ContextJson;
}
