import type { ProjectHints } from "../config/derive-project";
import type { ApiCall, ApiResponse } from "../http/api-client";

/** `params` with the session's project hints added: the server decides the project from them. */
export function withHints(params: URLSearchParams, hints: ProjectHints): URLSearchParams {
  for (const [key, value] of Object.entries(hints)) if (value) params.set(key, value);
  return params;
}

/** GET `route` with the hints, by the time `deadline`: one request, the server resolves the project. */
export function getForProject(call: ApiCall, route: string, hints: ProjectHints, params: URLSearchParams, deadline: number): Promise<ApiResponse> {
  return call("GET", `${route}?${withHints(params, hints)}`, undefined, { timeoutMs: deadline - Date.now() });
}

/** The `additionalContext` of the server's hook JSON (undefined when the answer is not that JSON). */
export function additionalContext(res: ApiResponse): unknown {
  return (res.json as { hookSpecificOutput?: { additionalContext?: unknown } } | undefined)?.hookSpecificOutput?.additionalContext;
}
