import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { byline, defuseLine, fenced } from "../../context/pack/fence";
import { slugSchema } from "../../projects/project-schemas";
import { claimNextSession, claimSession } from "../../sessions/claim-session";
import { completeSession, releaseSession } from "../../sessions/finish-session";
import { insideRepository } from "../../sessions/repository-path";
import { sessionIdParam, sessionOutSchema } from "../../sessions/session-schemas";
import { toolText } from "../mcp-errors";
import type { McpEnv } from "../mcp-env";
import { WRITES, registerTool } from "../register-tool";

const pickupInput = z
  .object({
    id: sessionIdParam.optional().describe("The session document to claim. Omit to claim the next queued one of the project."),
    project: slugSchema
      .optional()
      .describe("The document's project; with no id, the project whose queue to take the next document from (highest priority, then oldest). Needed with id when several of your projects have a document with that id."),
  })
  .refine((a) => a.id !== undefined || a.project !== undefined, { message: "Give id (a session document) or project (take the next one)." });

const finishInput = z.object({
  id: sessionIdParam.describe("The claimed session document (its id, as pickup_session returned it)."),
  project: slugSchema.optional().describe("Its project, as pickup_session returned it; needed when several of your projects have a document with that id."),
});

/** The two ways a claimed document leaves its claimer: done, or back in the queue. */
const FINISH = {
  complete_session: {
    title: "Complete a session",
    description:
      "Marks a session document you claimed (with pickup_session) as done, once its work is finished, so it leaves the queue for good. Only its claimer or an owner of the project may complete it; a document not claimed (todo) or already done is refused, naming its state.",
    finish: completeSession,
    after: "done: it has left the queue",
  },
  release_session: {
    title: "Release a session",
    description:
      "Gives a session document you claimed (with pickup_session) back to the queue unfinished, so another agent can pick it up: use it when the work cannot be done now. Only its claimer or an owner of the project may release it; a document not claimed (todo) or already done is refused, naming its state.",
    finish: releaseSession,
    after: "todo again: back in the queue for anyone",
  },
} as const;

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
      const session = args.id
        ? await claimSession(env.db, env.principal, { project: args.project, id: args.id })
        : await claimNextSession(env.db, env.principal, args.project!);
      const out = sessionOutSchema.parse(session);
      // Whoever queued it wrote these fields too: each defused onto one line, as the quoted document is.
      const facts = [`priority ${out.priority}`, out.branch ? `branch ${defuseLine(out.branch)}` : null, out.workingDirectory ? `directory ${defuseLine(out.workingDirectory)}` : null];
      // Only paths inside the repository are offered: one stored before they were refused
      // (lib/sessions/repository-path.ts) would send the agent's own file tools to ~/.ssh.
      const paths = [...insideRepository(out.specs).map((p) => `- spec: ${defuseLine(p)}`), ...insideRepository(out.files).map((p) => `- file: ${defuseLine(p)}`)];
      const leftOut = out.specs.length + out.files.length - paths.length;
      const text = [
        `Claimed session ${out.id} in ${out.project} (${facts.filter(Boolean).join(", ")}); its status is now doing.`,
        (paths.length ? `It lists these paths in the repository:\n${paths.join("\n")}` : "It lists no spec or file paths.") +
          (leftOut ? `\n(${leftOut} listed path${leftOut === 1 ? "" : "s"} outside the repository left out.)` : ""),
        // Whoever queued it wrote it: quoted, so its text cannot pass for this answer's (lib/context/pack/fence.ts).
        fenced("The session document", [byline(out.author), `queued ${out.createdAt}`], out.markdown),
      ].join("\n\n");
      return toolText(text, { session: out });
    },
  );
  for (const [name, tool] of Object.entries(FINISH)) {
    registerTool(server, name, { title: tool.title, description: tool.description, inputSchema: finishInput, annotations: WRITES }, async (ref) => {
      const out = sessionOutSchema.parse(await tool.finish(env.db, env.principal, ref));
      return toolText(`Session ${out.id} in ${out.project} is now ${tool.after}.`, { session: out });
    });
  }
}
