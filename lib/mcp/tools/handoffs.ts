import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { producedByLabel } from "../../agents/produced-by";
import { handoffOutSchema, newHandoffSchema } from "../../handoffs/handoff-schemas";
import { writeHandoff } from "../../handoffs/handoffs";
import { slugSchema } from "../../projects/project-schemas";
import { toolText } from "../mcp-errors";
import type { McpEnv } from "../mcp-env";
import { WRITES, registerTool } from "../register-tool";

const handoffFields = newHandoffSchema.shape;

const writeInput = z.object({
  project: slugSchema.describe("Project slug, e.g. web."),
  markdown: handoffFields.markdown.describe(
    "The handoff in markdown: what was asked, what was done, files touched, what is left open. Stored exactly as sent.",
  ),
  sessionId: handoffFields.sessionId.describe("Your session id. Writing again with the same id replaces that handoff instead of adding one."),
  branch: handoffFields.branch.describe("Git branch the work is on; the next session on the same branch gets this handoff first."),
  author: handoffFields.author.describe("A display name kept beside the author; the author shown is always the token owner's name."),
  agent: handoffFields.agent.describe("The coding agent you are, shown beside the author."),
  model: handoffFields.model.describe("The model you run on, e.g. gpt-5.1."),
});

/** Writing tools: registered only for tokens with the write scope. */
export function registerHandoffWriteTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "write_handoff",
    {
      title: "Write a handoff",
      description:
        "Leaves a handoff for the next session in a project (yours or a teammate's): it is injected into the next session-start context, on the same branch first. Use it when stopping work, or at a milestone of a long session, so nothing has to be rediscovered.",
      inputSchema: writeInput,
      annotations: WRITES,
    },
    async ({ project, ...handoff }) => {
      const { handoff: saved, created } = await writeHandoff(env.db, env.principal, project, handoff);
      const what = created ? "Handoff saved" : `Handoff of session ${saved.sessionId} replaced`;
      const branch = saved.branch ? ` on branch ${saved.branch}` : "";
      const agent = producedByLabel(saved);
      return toolText(`${what} in ${saved.project}${branch}, by ${saved.author}${agent ? ` (${agent})` : ""} (id ${saved.id}).`, {
        created,
        handoff: handoffOutSchema.parse(saved),
      });
    },
  );
}
