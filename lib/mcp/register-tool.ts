import "server-only";
import type { CallToolResult, McpServer, StandardSchemaWithJSON, ToolAnnotations, ToolCallback } from "@modelcontextprotocol/server";
import { runTool } from "./mcp-errors";

/** A tool that only reads. */
export const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** A tool that writes without destroying anything; called twice, it acts twice. */
export const WRITES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** A tool that writes without destroying anything; calling it twice does what calling it once did. */
export const IDEMPOTENT_WRITES: ToolAnnotations = { ...WRITES, idempotentHint: true };

type ToolSpec<S extends StandardSchemaWithJSON> = { title: string; description: string; inputSchema: S; annotations: ToolAnnotations };

/** Registers a tool whose work runs through runTool, so a failure reaches the agent as an `isError` result. */
export function registerTool<S extends StandardSchemaWithJSON>(
  server: McpServer,
  name: string,
  spec: ToolSpec<S>,
  work: (args: StandardSchemaWithJSON.InferOutput<S>) => Promise<CallToolResult>,
): void {
  // ToolCallback<S> is a conditional type TypeScript cannot resolve for a generic S, hence the assertion.
  const callback = ((args: StandardSchemaWithJSON.InferOutput<S>) => runTool(() => work(args))) as ToolCallback<S>;
  server.registerTool(name, spec, callback);
}
