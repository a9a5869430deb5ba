import type { DerivedProject } from "../config/derive-project";
import type { ApiCall, ApiResponse } from "../http/api-client";

/**
 * GET `route` for the session's project, by the time `deadline`. A project guessed from the remote or
 * the directory may not exist on the server: then the server resolves it from cwd and remote (its
 * matchers), or answers for the personal scope.
 */
export async function getForProject(call: ApiCall, route: string, project: DerivedProject | null, params: URLSearchParams, deadline: number): Promise<ApiResponse> {
  const get = (query: string) => call("GET", `${route}?${query}`, undefined, { timeoutMs: deadline - Date.now() });
  if (!project) return get(`${params}`);
  const res = await get(`project=${encodeURIComponent(project.slug)}&${params}`);
  if ((res.status === 404 || res.status === 403) && project.from !== "config") return get(`${params}`);
  return res;
}

/** The `additionalContext` of the server's hook JSON (undefined when the answer is not that JSON). */
export function additionalContext(res: ApiResponse): unknown {
  return (res.json as { hookSpecificOutput?: { additionalContext?: unknown } } | undefined)?.hookSpecificOutput?.additionalContext;
}

/** The server's answer as a hook prints it: as it came, ending in a newline. */
export const hookText = (res: ApiResponse): string => (res.text.endsWith("\n") ? res.text : `${res.text}\n`);
