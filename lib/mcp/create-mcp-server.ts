import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "mcp-handler";
import { BATON_VERSION as version } from "@/lib/baton-version";
import type { McpEnv } from "./mcp-env";
import { registerResources } from "./resources";
import { registerHandoffWriteTools } from "./tools/handoffs";
import { LEARNING_GUIDE, registerLearningTools, registerLearningWriteTools } from "./tools/learnings";
import { registerSessionWriteTools } from "./tools/sessions";
import { registerTaskTools, registerTaskWriteTools } from "./tools/tasks";

function instructions(env: McpEnv): string {
  const scope =
    env.principal.scope === "write"
      ? `This token may read and write. propose_learning sends a learning to the review queue as soon as the session teaches it. ${LEARNING_GUIDE}`
      : "This token has the read scope: the writing tools (propose_learning, pin_learning, write_handoff, set_task_memory, pickup_session, complete_session, release_session) are not offered.";
  return [
    "Baton keeps what coding agents learn and hand over between sessions, per project: learnings, handoffs, task memory and a queue of session documents.",
    "Resources: baton://context/{project} (the session-start context), baton://memory/{project}/active, baton://memory/{project}/{taskId}, baton://handoff/{project}/latest, baton://session/{project}/{id}.",
    scope,
  ].join("\n");
}

/** Registers Baton's resources and tools on a fresh server, the writing tools only for a write token. */
export function populateMcpServer(server: McpServer, env: McpEnv): void {
  registerResources(server, env);
  registerLearningTools(server, env);
  registerTaskTools(server, env);
  if (env.principal.scope === "write") {
    registerLearningWriteTools(server, env);
    registerHandoffWriteTools(server, env);
    registerTaskWriteTools(server, env);
    registerSessionWriteTools(server, env);
  }
}

/**
 * The MCP handler of one HTTP request, for one principal. mcp-handler builds a fresh McpServer per
 * request anyway (stateless Streamable HTTP), so building the handler per request costs nothing more
 * and lets what is registered follow the token's scope.
 */
export function createMcpServerHandler(env: McpEnv): (request: Request) => Promise<Response> {
  return createMcpHandler((server) => populateMcpServer(server, env), {
    serverInfo: { name: "baton", version },
    instructions: instructions(env),
    telemetry: false,
  });
}
