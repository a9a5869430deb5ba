import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ApiError } from "../../api/errors";
import { byline, fenced } from "../../context/pack/fence";
import { slugSchema } from "../../projects/project-schemas";
import { getActiveTask } from "../../tasks/active-task";
import { getTaskMemory, putTaskMemory } from "../../tasks/task-memory";
import { taskIdSchema, taskMemoryBodySchema, taskMemoryOutSchema } from "../../tasks/task-schemas";
import { toolText } from "../mcp-errors";
import type { McpEnv } from "../mcp-env";
import { READS, registerTool } from "../register-tool";

const projectSchema = slugSchema.describe("Project slug, e.g. web.");
const taskSchema = taskIdSchema.describe("Task id such as task-368. Omit for your active task in the project.");

const getInput = z.object({ project: projectSchema, taskId: taskSchema.optional() });
const setInput = z.object({
  project: projectSchema,
  taskId: taskSchema.optional(),
  markdown: taskMemoryBodySchema.shape.markdown.describe("The whole memory document (markdown); replaces what was there. May be empty."),
});

/** The task named, else the principal's active task in the project. */
async function resolveTaskId(env: McpEnv, project: string, taskId: string | undefined): Promise<{ taskId: string; active: boolean }> {
  const active = await getActiveTask(env.db, env.principal, project);
  if (taskId) return { taskId, active: active?.taskId === taskId };
  if (!active) throw new ApiError("not_found", `You have no active task in "${project}": pass taskId (e.g. task-368).`);
  return { taskId: active.taskId, active: true };
}

export function registerTaskTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "get_task_memory",
    {
      title: "Get task memory",
      description:
        "Reads the memory document of a task (what is done, decisions, next steps), your active task when no taskId is given. Use it when resuming work on a task or after your context was compacted.",
      inputSchema: getInput,
      annotations: READS,
    },
    async (args) => {
      const { taskId, active } = await resolveTaskId(env, args.project, args.taskId);
      const memory = await getTaskMemory(env.db, env.principal, args.project, taskId);
      const out = taskMemoryOutSchema.parse(memory);
      const what = `Memory of ${taskId}${active ? " (your active task)" : ""} in ${out.project}`;
      // Quoted under who wrote it and when: a teammate's memory is their text, not an instruction (lib/context/pack/fence.ts).
      return toolText(fenced(what, [byline(out.updatedBy, out.updatedByYou), `updated ${out.updatedAt}`], memory.markdown), { active, memory: out });
    },
  );
}

/** Writing tools: registered only for tokens with the write scope. */
export function registerTaskWriteTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "set_task_memory",
    {
      title: "Set task memory",
      description:
        "Replaces the memory document of a task (your active task when no taskId is given); it is shown in the session-start context while the task is active. Use it to record progress, decisions and next steps as you go, so a later session (or a teammate) can continue.",
      inputSchema: setInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const { taskId, active } = await resolveTaskId(env, args.project, args.taskId);
      const memory = await putTaskMemory(env.db, env.principal, args.project, taskId, { markdown: args.markdown });
      const out = taskMemoryOutSchema.parse(memory);
      return toolText(`Saved the memory of ${taskId}${active ? " (your active task)" : ""} in ${out.project} (${args.markdown.length} characters).`, {
        active,
        memory: out,
      });
    },
  );
}
