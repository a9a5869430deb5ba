import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { slugSchema } from "../../projects/project-schemas";
import { claimNextSession, claimSession } from "../../sessions/claim-session";
import { sessionIdParam, sessionOutSchema } from "../../sessions/session-schemas";
import { toolText } from "../mcp-errors";
import type { McpEnv } from "../mcp-env";
import { WRITES, registerTool } from "../register-tool";

const pickupInput = z
  .object({
    id: sessionIdParam.optional().describe("The session document to claim. Omit to claim the next queued one of the project."),
    project: slugSchema.optional().describe("Project whose queue to take the next document from (highest priority, then oldest)."),
  })
  .refine((a) => a.id !== undefined || a.project !== undefined, { message: "Give id (a session document) or project (take the next one)." });

/** Writing tools: registered only for tokens with the write scope. */
export function registerSessionWriteTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "pickup_session",
    {
      title: "Pick up a session",
      description:
        "Claims a queued session document (a unit of work someone prepared) so no other agent takes it, and returns it: the task in markdown, plus the spec and file paths it lists. Use it when asked to pick up or continue queued work; by id, or the next one of a project. Claiming one that someone else holds fails and names the holder.",
      inputSchema: pickupInput,
      annotations: WRITES,
    },
    async (args) => {
      const session = args.id ? await claimSession(env.db, env.principal, args.id) : await claimNextSession(env.db, env.principal, args.project!);
      const out = sessionOutSchema.parse(session);
      const facts = [`priority ${out.priority}`, out.branch ? `branch ${out.branch}` : null, out.workingDirectory ? `directory ${out.workingDirectory}` : null];
      const paths = [...out.specs.map((p) => `- spec: ${p}`), ...out.files.map((p) => `- file: ${p}`)];
      const text = [
        `Claimed session ${out.id} in ${out.project} (${facts.filter(Boolean).join(", ")}); its status is now doing.`,
        paths.length ? `It lists these paths in the repository:\n${paths.join("\n")}` : "It lists no spec or file paths.",
        `--- session document ---\n${out.markdown}`,
      ].join("\n\n");
      return toolText(text, { session: out });
    },
  );
}
