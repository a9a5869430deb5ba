import "server-only";
import { contextQuerySchema } from "../context/context-query";
import { serveContext } from "../context/serve/serve-context";
import type { McpEnv } from "./mcp-env";

/**
 * A project's context exactly as GET /api/context?project=…&format=text returns it (default budget,
 * limits and mode), through the route's own serveContext: same cache, same served-log bookkeeping.
 */
export async function contextText(env: McpEnv, slug: string): Promise<string> {
  const q = contextQuerySchema.parse({ project: slug, format: "text" });
  return (await serveContext(env.db, env.principal, q, { dashboardUrl: env.dashboardUrl })).body;
}
